import { expect } from 'chai';
import { LinkError } from '../../../core/identity/link-error.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { linkKey, VAULT_NAMESPACE, type StoredLink } from '../../../plugins/identity/vault-record.js';
import { rejection } from '../../support/async.js';
import type { LoopbackOAuthServer } from '../../support/identity/oauth-server.js';
import { atlassianFlow, atlassianFlowFor, atlassianServer } from '../../support/identity/vendor-servers.js';
import { auditedStore, newVaultKey } from '../../support/identity/vault-fixture.js';
import { openTestStore } from '../../support/store-backends.js';

const alice = { principal: 'alice@acme', session: 'console-session-alice' };
const mallory = { principal: 'mallory@acme', session: 'console-session-mallory' };

describe('Linking Atlassian Cloud (3LO) against a real OAuth 2.0 server', () => {
  let server: LoopbackOAuthServer;
  let store: KeyValueStore;
  let vault: TokenVault;
  let linking: AccountLinking;
  let key: ReturnType<typeof newVaultKey>;

  beforeEach(async () => {
    server = await atlassianServer();
    store = auditedStore(await openTestStore('memory://'));
    key = newVaultKey();
    const flow = atlassianFlow(server);
    vault = await TokenVault.open({ store, key, refreshers: { atlassian: flow.refresh } });
    linking = new AccountLinking({ vault, states: new LinkStates(store, key), redirectFlows: [flow] });
  });
  afterEach(async () => {
    await store.close();
    await server.close();
  });

  it('links the person: offline_access, consent and PKCE asked; the account id and the site cloud id kept with the tokens', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const back = await server.authorize(url, 'alice');
    expect(back.searchParams.get('state')).to.equal(state);
    const asked = new URL(url).searchParams;
    expect(server.authorizeRequests[0]!.get('code_challenge')).to.equal(asked.get('code_challenge'));
    expect(asked.get('scope')!.split(' ')).to.include.members(['offline_access', 'read:jira-work', 'write:jira-work']);
    expect(asked.get('audience')).to.equal('api.atlassian.com');
    expect(asked.get('prompt')).to.equal('consent');
    expect(asked.get('code_challenge_method')).to.equal('S256');
    expect(url).not.to.include(linkingVerifier(linking, state));

    const summary = await linking.callback('atlassian', back.searchParams.get('code')!, state, alice);
    expect(summary).to.include({ vendor: 'atlassian', login: 'alice@acme.example', accountId: '712020:alice', siteId: 'a436116f-02ce-4520-8fbb-7301462a1674' });
    expect(summary.siteUrl).to.equal('https://acme.atlassian.net');
    const credential = (await vault.credential('alice@acme', 'atlassian'))!;
    expect(await server.accepts(credential.accessToken.reveal())).to.equal(true);
    const record = (await store.get<StoredLink>(VAULT_NAMESPACE, linkKey('alice@acme', 'atlassian')))!;
    expect(record.hasRefreshToken).to.equal(true);
  });

  it('refuses a replayed callback, an unknown state, and a state started by another person (whose attempt still works)', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(url, 'alice')).searchParams.get('code')!;

    const foreign = await rejection(linking.callback('atlassian', code, state, mallory));
    expect(foreign).to.be.instanceOf(LinkError).and.to.have.property('problem', 'state_other_principal');
    expect(foreign.message).to.equal(
      'This Atlassian Cloud link attempt was started by someone else or in another session; start linking from your own session.',
    );
    const otherSession = await rejection(linking.callback('atlassian', code, state, { ...alice, session: 'another-tab' }));
    expect(otherSession).to.have.property('problem', 'state_other_principal');
    expect(await vault.credential('mallory@acme', 'atlassian')).to.equal(undefined);

    await linking.callback('atlassian', code, state, alice);
    const replay = await rejection(linking.callback('atlassian', code, state, alice));
    expect(replay).to.have.property('problem', 'state_replayed');
    expect(replay.message).to.equal('This Atlassian Cloud link attempt was already used; start linking again if your account is not linked.');
    const unknown = await rejection(linking.callback('atlassian', code, 'A'.repeat(43), alice));
    expect(unknown.message).to.equal('This Atlassian Cloud link attempt is unknown or has expired; start linking again.');
  });

  it('of two callbacks racing with one state, exactly one links', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    const code = (await server.authorize(url, 'alice')).searchParams.get('code')!;
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => linking.callback('atlassian', code, state, alice)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) expect(o.reason).to.have.property('problem', 'state_replayed');
  });

  it("refuses a code brought back with another attempt's state: the PKCE verifier does not match", async () => {
    const first = await linking.start('atlassian', alice);
    const second = await linking.start('atlassian', alice);
    const code = (await server.authorize(first.url, 'alice')).searchParams.get('code')!;
    const error = await rejection(linking.callback('atlassian', code, second.state, alice));
    expect(error).to.be.instanceOf(LinkError).and.to.have.property('problem', 'code_refused');
    expect(error.message).to.equal('Atlassian Cloud refused the authorization code of this link attempt; start linking again (invalid_grant).');
    expect(await vault.credential('alice@acme', 'atlassian')).to.equal(undefined);
  });

  it('keeps nothing when the consent did not include the site ATLASSIAN_SITE_NAME names, and says to choose it', async () => {
    const siteLinking = new AccountLinking({ vault, states: new LinkStates(store, key), redirectFlows: [atlassianFlowFor(server, 'globex')] });
    const { url, state } = await siteLinking.start('atlassian', alice);
    const error = await rejection(siteLinking.callback('atlassian', (await server.authorize(url, 'alice')).searchParams.get('code')!, state, alice));
    expect(error.message).to.equal(
      'Your Atlassian Cloud consent did not include the site this server acts on; link again and choose that site on the consent screen (globex.atlassian.net).',
    );
    expect(await vault.accounts('alice@acme')).to.deep.equal([]);
  });

  it('marks the link stale when Atlassian refuses a refresh (a spent rotating token), and says to link again', async () => {
    const { url, state } = await linking.start('atlassian', alice);
    await linking.callback('atlassian', (await server.authorize(url, 'alice')).searchParams.get('code')!, state, alice);
    const key = linkKey('alice@acme', 'atlassian');
    const original = (await store.get<StoredLink>(VAULT_NAMESPACE, key))!;
    const due = { ...original, expiresAt: Date.now() + 1000 };
    await store.set(VAULT_NAMESPACE, key, due, 60_000);
    const renewed = (await vault.credential('alice@acme', 'atlassian'))!;
    expect(await server.accepts(renewed.accessToken.reveal())).to.equal(true);
    // The record from before the renewal comes back (a restored backup): its refresh token was spent.
    await store.set(VAULT_NAMESPACE, key, due, 60_000);
    const error = await rejection(vault.credential('alice@acme', 'atlassian'));
    expect(error).to.be.instanceOf(LinkError).and.to.have.property('problem', 'refresh_refused');
    expect(error.message).to.equal("Atlassian Cloud refused to renew your linked account's token; link your account again (invalid_grant).");
    expect(server.refreshUses.map((u) => u.status)).to.deep.equal([200, 400]);
    const [account] = await vault.accounts('alice@acme');
    expect(account!.stale?.reason).to.equal(error.message);
    expect((await rejection(vault.credential('alice@acme', 'atlassian'))).message).to.equal(
      'Atlassian Cloud no longer accepts your linked account; link your account again.',
    );
  });
});

/** The verifier the server derives for a state (never sent anywhere but the token endpoint). */
function linkingVerifier(linking: AccountLinking, state: string): string {
  return (linking as unknown as { options: { states: LinkStates } }).options.states.verifier(state).reveal();
}
