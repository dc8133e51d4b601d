import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { PersonalTokenCheck } from '../../../plugins/identity/flows/personal-tokens.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { rejection } from '../../support/async.js';
import { canary } from '../../support/canaries.js';
import { dataCenterMocks } from '../../support/identity/data-center-mocks.js';
import { auditedStore, newVaultKey } from '../../support/identity/vault-fixture.js';
import { openTestStore } from '../../support/store-backends.js';

const alice = { principal: 'alice@acme', session: 'cli-run-1' };

describe('Linking by personal access token (Data Center, CircleCI): one read before it is kept', () => {
  const tokens = { jira: canary('NjQ3'), confluence: canary('MTI4'), bitbucket: canary('BBDC-'), circleci: canary('CCIPAT_') };
  let mock: MockUpstream;
  let store: KeyValueStore;
  let vault: TokenVault;
  let linking: AccountLinking;

  beforeEach(async () => {
    mock = await dataCenterMocks(tokens);
    store = auditedStore(await openTestStore('memory://'));
    const key = newVaultKey();
    vault = await TokenVault.open({ store, key });
    linking = new AccountLinking({
      vault,
      states: new LinkStates(store, key),
      tokenChecks: [
        new PersonalTokenCheck('jira-datacenter', `${mock.url}/jira`),
        new PersonalTokenCheck('confluence-datacenter', `${mock.url}/confluence/`),
        new PersonalTokenCheck('bitbucket-datacenter', `${mock.url}/bitbucket`),
        new PersonalTokenCheck('circleci', mock.url),
      ],
    });
  });
  afterEach(async () => {
    await store.close();
    await mock.close();
  });

  const cases = [
    { vendor: 'jira-datacenter', token: () => tokens.jira, path: '/jira/rest/api/2/myself', accountId: 'JIRAUSER10100' },
    {
      vendor: 'confluence-datacenter',
      token: () => tokens.confluence,
      path: '/confluence/rest/api/user/current',
      accountId: '8a7f808a7b6d5e4c017b6d5e9a7c0001',
    },
    { vendor: 'bitbucket-datacenter', token: () => tokens.bitbucket, path: '/bitbucket/plugins/servlet/applinks/whoami', accountId: undefined },
    { vendor: 'circleci', token: () => tokens.circleci, path: '/api/v2/me', accountId: '5a3c2f0e-6d3b-4e8a-9b1c-2f7e4d5c6b7a' },
  ] as const;

  for (const c of cases) {
    it(`${c.vendor}: keeps a token ${c.path} answers for, as its owner`, async () => {
      const summary = await linking.connectToken(c.vendor, `  ${c.token()}\n`, alice);
      expect(summary).to.include({ vendor: c.vendor, login: 'alice' });
      expect(summary.accountId).to.equal(c.accountId);
      expect(mock.requests.map((r) => r.path)).to.deep.equal([c.path]);
      expect((await vault.credential('alice@acme', c.vendor))!.accessToken.reveal()).to.equal(c.token());
    });

    it(`${c.vendor}: keeps nothing when the vendor refuses the token, and says to check it`, async () => {
      const error = await rejection(linking.connectToken(c.vendor, canary('wrong-'), alice));
      expect(error).to.have.property('problem', 'token_refused');
      expect(error.message).to.match(/ refused the personal access token; check it and enter it again \((HTTP_401|anonymous)\)\.$/);
      expect(await vault.credential('alice@acme', c.vendor)).to.equal(undefined);
    });
  }

  it('says so when the vendor cannot be reached, and keeps nothing', async () => {
    await mock.close();
    const error = await rejection(linking.connectToken('circleci', tokens.circleci, alice));
    expect(error.message).to.equal('CircleCI could not be reached or answered unexpectedly; try again in a moment.');
    expect(await vault.accounts('alice@acme')).to.deep.equal([]);
  });
});
