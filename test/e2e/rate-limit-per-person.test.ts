import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { GithubOAuthMock } from '../support/identity/github-oauth-mock.js';
import { sqliteBytes } from '../support/identity/vault-fixture.js';
import { sentence, startActingServer, type ActingServer } from '../support/identity/acting-server.js';

const TOKENS = { alice: 'tok-alice-ratelimit-5d20c1', bob: 'tok-bob-ratelimit-0b7e44' };
const SERVICE_TOKEN = 'ghp_service-token-ratelimit-7a90e3';
const APP = { clientId: 'Iv1.e2e-ratelimit-client', clientSecret: 'e2e-ratelimit-client-secret-31c9d0', type: 'oauth-app' as const };

/**
 * The rate-limit governor keys a budget by the credential that acts: with GITHUB_CREDENTIALS=user each person's
 * linked account has its own, so a limit one person meets never holds another's calls.
 */
describe("Rate limits per person (GITHUB_CREDENTIALS=user): one person's limit is not another's", function () {
  this.timeout(60_000);
  let github: GithubOAuthMock;
  let acting: ActingServer;

  before(async () => {
    github = await GithubOAuthMock.start(APP);
    github.serviceToken(SERVICE_TOKEN, 'acme-bot');
    acting = await startActingServer(TOKENS, ['github'], {
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: SERVICE_TOKEN,
      GITHUB_CREDENTIALS: 'user',
      GITHUB_OAUTH_CLIENT_ID: APP.clientId,
      GITHUB_OAUTH_CLIENT_SECRET: APP.clientSecret,
    });
    for (const [person, login] of [
      ['alice', 'alice-gh'],
      ['bob', 'bob-gh'],
    ] as const) {
      const started = await acting.linkRoute('/github', TOKENS[person]);
      const code = github.approve(String(started.body.url), login);
      const linked = await acting.linkRoute('/github/callback', TOKENS[person], { code, state: started.body.state });
      expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    }
  });
  after(async () => {
    await acting?.close();
    await github?.close();
  });

  it("alice's account is limited for ten minutes: her next call is not sent; bob's calls go on with his own budget", async () => {
    github.serveRepository((login) =>
      login === 'alice-gh'
        ? { status: 429, headers: { 'retry-after': '600' }, body: { message: 'You have exceeded a secondary rate limit.' } }
        : { status: 200, body: { full_name: 'acme/app' } },
    );
    const alice = await acting.connect(TOKENS.alice);
    const bob = await acting.connect(TOKENS.bob);
    const call = async (client: typeof alice): Promise<CallToolResult> =>
      (await client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/app' } })) as CallToolResult;
    const repositoryRequests = (): number => github.requests.filter((r) => r.path === '/api/v3/repos/acme/app').length;

    expect(sentence(await call(alice))).to.match(/answered 429 .*rate limit exceeded\. Retry after 600 seconds \(at .+Z\)\.$/);
    expect(repositoryRequests()).to.equal(1);
    expect(sentence(await call(alice))).to.match(/GitHub: GET \/repos\/acme\/app was not sent: it answered a rate limit for this credential/);
    expect(repositoryRequests()).to.equal(1);
    for (let i = 0; i < 3; i++) {
      const result = await call(bob);
      expect(result.isError, sentence(result)).to.not.equal(true);
    }
    expect(repositoryRequests()).to.equal(4);
  });

  it('the budget kept in the store names the account by a fingerprint, never by a token', () => {
    const bytes = sqliteBytes(join(acting.dir, 'store.db'));
    expect(bytes).to.include('rate-limits');
    for (const token of [...github.issuedTokens, SERVICE_TOKEN]) expect(bytes.includes(token), 'a token in the store in clear').to.equal(false);
  });
});
