import { expect } from 'chai';
import { inspect } from 'node:util';
import { LinkError } from '../../../core/identity/link-error.js';
import { SecretText } from '../../../core/identity/secret-text.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { GithubDeviceFlow } from '../../../plugins/identity/flows/github-device-flow.js';
import { GithubFlow, type GithubAppOptions } from '../../../plugins/identity/flows/github-flow.js';
import { LinkStates } from '../../../plugins/identity/link-states.js';
import { TokenVault } from '../../../plugins/identity/token-vault.js';
import { linkKey, VAULT_NAMESPACE, type StoredLink } from '../../../plugins/identity/vault-record.js';
import { rejection } from '../../support/async.js';
import { GithubOAuthMock, type GithubApp } from '../../support/identity/github-oauth-mock.js';
import { auditedStore, newVaultKey } from '../../support/identity/vault-fixture.js';
import { openTestStore } from '../../support/store-backends.js';

const alice = { principal: 'alice@acme', session: 'console-session-alice' };
const REDIRECT = 'https://mcp.acme.example/identity/callback/github';

for (const type of ['oauth-app', 'github-app'] as const) {
  describe(`Linking GitHub (${type}) on GitHub Enterprise Server's OAuth endpoints`, () => {
    const app: GithubApp = { clientId: `Iv1.${type}-client`, clientSecret: `${type}-secret-0c9d7e21`, type };
    let github: GithubOAuthMock;
    let store: KeyValueStore;
    let vault: TokenVault;
    let linking: AccountLinking;

    beforeEach(async () => {
      github = await GithubOAuthMock.start(app);
      store = auditedStore(await openTestStore('memory://'));
      const options: GithubAppOptions = {
        clientType: type,
        clientId: app.clientId,
        clientSecret: new SecretText(app.clientSecret),
        redirectUri: REDIRECT,
        scopes: ['repo', 'workflow'],
        apiUrl: github.apiUrl,
      };
      const key = newVaultKey();
      const flow = new GithubFlow(options);
      vault = await TokenVault.open({ store, key, refreshers: { github: flow.refresh } });
      linking = new AccountLinking({ vault, states: new LinkStates(store, key), redirectFlows: [flow], githubDevice: new GithubDeviceFlow(options) });
    });
    afterEach(async () => {
      await store.close();
      await github.close();
    });

    async function link(): Promise<void> {
      const { url, state } = await linking.start('github', alice);
      await linking.callback('github', github.approve(url, 'alice'), state, alice);
    }

    it('links through the web flow with PKCE: the verifier goes to the token endpoint only, the login comes from GET /user', async () => {
      const { url, state } = await linking.start('github', alice);
      const asked = new URL(url);
      expect(`${asked.origin}${asked.pathname}`).to.equal(`${github.apiUrl.replace('/api/v3', '')}/login/oauth/authorize`);
      expect(asked.searchParams.get('state')).to.equal(state);
      expect(asked.searchParams.get('redirect_uri')).to.equal(REDIRECT);
      expect(asked.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(asked.searchParams.get('scope')).to.equal(type === 'oauth-app' ? 'repo,workflow' : null);

      const summary = await linking.callback('github', github.approve(url, 'alice'), state, alice);
      expect(summary).to.include({ vendor: 'github', login: 'alice' });
      expect(summary.accountId).to.match(/^\d+$/);
      const exchange = github.requests.find((r) => r.path === '/login/oauth/access_token')!;
      expect(JSON.parse(exchange.body))
        .to.have.property('code_verifier')
        .that.matches(/^[A-Za-z0-9_-]{43}$/);
      expect(github.requests.filter((r) => r.body.includes('code_verifier'))).to.have.length(1);
      const credential = (await vault.credential('alice@acme', 'github'))!;
      expect(github.accepts(credential.accessToken.reveal())).to.equal(true);
      expect(credential.expiresAt === undefined).to.equal(type === 'oauth-app');
    });

    it('refuses a code whose PKCE verifier does not match, with a sentence and nothing of the request in the error', async () => {
      const first = await linking.start('github', alice);
      const second = await linking.start('github', alice);
      const error = await rejection(linking.callback('github', github.approve(first.url, 'alice'), second.state, alice));
      expect(error).to.be.instanceOf(LinkError).and.to.have.property('problem', 'code_refused');
      expect(error.message).to.equal('GitHub refused the authorization code of this link attempt; start linking again (bad_verification_code).');
      const everything = `${error.stack} ${JSON.stringify(error)} ${inspect(error, { depth: 10, showHidden: true })}`;
      expect(everything).not.to.include(app.clientSecret);
      expect(everything).not.to.include('code_verifier');
    });

    it('disconnecting revokes the grant at GitHub (DELETE /applications/{client_id}/grant) and forgets the link', async () => {
      await link();
      const token = (await vault.credential('alice@acme', 'github'))!.accessToken.reveal();
      expect(await linking.disconnect('github', 'alice@acme')).to.deep.equal({ removed: true, revoked: true });
      expect(github.accepts(token)).to.equal(false);
      expect(await vault.credential('alice@acme', 'github')).to.equal(undefined);
      const revoke = github.requests.find((r) => r.method === 'DELETE')!;
      expect(revoke.path).to.equal(`/api/v3/applications/${app.clientId}/grant`);
      expect(await linking.disconnect('github', 'alice@acme')).to.deep.equal({ removed: false, revoked: false });
    });

    it('links by device code for a local server, polling as GitHub asks (authorization_pending, then slow_down)', async () => {
      const started = await linking.startDevice(alice);
      expect(started.verificationUri).to.equal(`${github.apiUrl.replace('/api/v3', '')}/login/device`);
      expect(started.userCode).to.match(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
      expect(JSON.stringify(started)).not.to.match(/[0-9a-f]{40}/); // the device code stays on the server
      expect(await linking.pollDevice(started.attempt, alice, started.intervalSeconds)).to.deep.equal({ pending: true, intervalSeconds: 5 });
      expect(await linking.pollDevice(started.attempt, alice, 5)).to.deep.equal({ pending: true, intervalSeconds: 10 });
      const foreign = await rejection(linking.pollDevice(started.attempt, { principal: 'mallory@acme', session: 's' }, 10));
      expect(foreign).to.have.property('problem', 'state_other_principal');
      github.enterUserCode(started.userCode, 'alice');
      const summary = await linking.pollDevice(started.attempt, alice, 10);
      expect(summary).to.include({ vendor: 'github', login: 'alice' });
      expect(github.accepts((await vault.credential('alice@acme', 'github'))!.accessToken.reveal())).to.equal(true);
      expect(await rejection(linking.pollDevice(started.attempt, alice, 10))).to.have.property('problem', 'state_replayed');
    });

    if (type === 'github-app') {
      it('renews an expiring user token with its refresh token once, and marks the link stale when GitHub refuses a spent one', async () => {
        await link();
        const key = linkKey('alice@acme', 'github');
        const due = { ...(await store.get<StoredLink>(VAULT_NAMESPACE, key))!, expiresAt: Date.now() + 1000 };
        await store.set(VAULT_NAMESPACE, key, due, 60_000);
        const [a, b] = await Promise.all([vault.credential('alice@acme', 'github'), vault.credential('alice@acme', 'github')]);
        expect(a!.accessToken.equals(b!.accessToken)).to.equal(true);
        expect(github.accepts(a!.accessToken.reveal())).to.equal(true);
        expect(a!.expiresAt).to.be.above(Date.now() + 28_000_000);
        expect(github.refreshUses.map((u) => u.ok)).to.deep.equal([true]);

        await store.set(VAULT_NAMESPACE, key, due, 60_000); // the spent refresh token comes back (a restored backup)
        const error = await rejection(vault.credential('alice@acme', 'github'));
        expect(error.message).to.equal("GitHub refused to renew your linked account's token; link your account again (bad_refresh_token).");
        expect((await vault.accounts('alice@acme'))[0]!.stale).to.not.equal(undefined);
      });
    }
  });
}

describe('Waiting for a device code on a local server (the CLI)', () => {
  it('polls at the interval GitHub gives until the person has entered the code', async () => {
    const github = await GithubOAuthMock.start({ clientId: 'Iv1.device', clientSecret: 'unused-secret-1234', type: 'oauth-app', deviceInterval: 1 });
    try {
      const device = new GithubDeviceFlow({ clientType: 'oauth-app', clientId: 'Iv1.device', scopes: ['repo'], apiUrl: github.apiUrl });
      const started = await device.start();
      const waiting = device.wait(started);
      setTimeout(() => github.enterUserCode(started.userCode, 'alice'), 1500);
      const link = await waiting;
      expect(link.login).to.equal('alice');
      const polls = github.requests.filter((r) => r.path === '/login/oauth/access_token');
      expect(polls.length).to.be.within(2, 3);
      expect(polls.every((r) => !r.body.includes('client_secret'))).to.equal(true); // a device flow needs no secret
      const aborted = new AbortController();
      const second = device.wait(await device.start(), aborted.signal);
      aborted.abort();
      expect(await rejection(second)).to.have.property('problem', 'state_unknown');
    } finally {
      await github.close();
    }
  });
});
