import { expect } from 'chai';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { linkKey, VAULT_NAMESPACE, type StoredLink } from '../../../plugins/identity/vault-record.js';
import type { LoopbackOAuthServer } from '../../support/identity/oauth-server.js';
import { bitbucketFlow, bitbucketServer } from '../../support/identity/vendor-servers.js';
import { auditedStore, newVaultKey } from '../../support/identity/vault-fixture.js';
import { openTestStore } from '../../support/store-backends.js';

const bob = { principal: 'bob@acme', session: 'console-session-bob' };

describe('Linking Bitbucket Cloud against a real OAuth 2.0 server', () => {
  let server: LoopbackOAuthServer;
  let store: KeyValueStore;

  beforeEach(async () => {
    server = await bitbucketServer();
    store = auditedStore(await openTestStore('memory://'));
  });
  afterEach(async () => {
    await store.close();
    await server.close();
  });

  it('links with the authorization code (client authenticated with Basic), then renews the two-hour token with its refresh token', async () => {
    const key = newVaultKey();
    const flow = bitbucketFlow(server);
    const vault = await TokenVault.open({ store, key, refreshers: { bitbucket: flow.refresh } });
    const linking = new AccountLinking({ vault, states: new LinkStates(store, key), redirectFlows: [flow] });
    const { url, state } = await linking.start('bitbucket', bob);
    expect(new URL(url).pathname).to.equal('/site/oauth2/authorize');
    const summary = await linking.callback('bitbucket', (await server.authorize(url, 'bob')).searchParams.get('code')!, state, bob);
    expect(summary).to.include({ vendor: 'bitbucket', login: 'bob', accountId: '557058:bob' });
    expect(summary.expiresAt).to.be.within(Date.now() + 7_100_000, Date.now() + 7_200_000);

    const record = (await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('bob@acme', 'bitbucket')))!;
    await store.set(VAULT_NAMESPACE, linkKey('bob@acme', 'bitbucket'), { ...record, expiresAt: Date.now() + 1000 }, 60_000);
    const renewed = (await vault.credential('bob@acme', 'bitbucket'))!;
    expect(await server.accepts(renewed.accessToken.reveal())).to.equal(true);
    expect(server.refreshUses.map((u) => u.status)).to.deep.equal([200]);
    expect((await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('bob@acme', 'bitbucket')))!.refreshedAt).to.be.a('number');
  });
});
