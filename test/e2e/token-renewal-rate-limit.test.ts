import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { GithubOAuthMock } from '../support/identity/github-oauth-mock.js';
import { sentence, startActingServer, type ActingServer } from '../support/identity/acting-server.js';

const TOKENS = { alice: 'tok-alice-renewal-limit-8e21a4', bob: 'tok-bob-renewal-limit-51c7f0' };
const SERVICE_TOKEN = 'ghp_service-token-renewal-limit-0d3e92';
const APP = { clientId: 'Iv1.e2e-renewal-limit-client', clientSecret: 'e2e-renewal-limit-client-secret-7f2b11', type: 'github-app' as const };

/**
 * Token renewals go through the rate-limit governor with a budget of their own (the token endpoint's, per OAuth
 * client): GitHub's token endpoint answering 429 to a refresh is waited out when near and the refresh sent again
 * (the refresh token was not spent); when far, later renewals are not sent until then, the current token serves
 * while it lasts, and an expired one fails saying when to retry. GitHub as a loopback mock of its OAuth endpoints
 * and REST API (a GitHub App's expiring user tokens), the server over Streamable HTTP, official SDK clients.
 */
describe('Token renewals through the rate-limit governor (GITHUB_CREDENTIALS=user, a GitHub App)', function () {
  this.timeout(60_000);
  let github: GithubOAuthMock;
  let acting: ActingServer;
  const refreshes = (): number => github.requests.filter((r) => r.path === '/login/oauth/access_token' && r.body.includes('refresh_token')).length;
  const call = async (person: keyof typeof TOKENS): Promise<CallToolResult> =>
    (await (await acting.connect(TOKENS[person])).callTool({ name: 'github_get', arguments: { path: '/repos/acme/app' } })) as CallToolResult;

  async function link(person: keyof typeof TOKENS, login: string): Promise<void> {
    const started = await acting.linkRoute('/github', TOKENS[person]);
    const code = github.approve(String(started.body.url), login);
    const linked = await acting.linkRoute('/github/callback', TOKENS[person], { code, state: started.body.state });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
  }

  before(async () => {
    github = await GithubOAuthMock.start(APP);
    github.serviceToken(SERVICE_TOKEN, 'acme-bot');
    github.serveRepository(() => ({ status: 200, body: { full_name: 'acme/app' } }));
    acting = await startActingServer(TOKENS, ['github'], {
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: SERVICE_TOKEN,
      GITHUB_CREDENTIALS: 'user',
      GITHUB_OAUTH_CLIENT_ID: APP.clientId,
      GITHUB_OAUTH_CLIENT_SECRET: APP.clientSecret,
      GITHUB_OAUTH_CLIENT_TYPE: 'github-app',
    });
    // Tokens of 30 s: within the vault's minute before expiry, so each call renews first.
    github.tokenSeconds = 30;
    await link('alice', 'alice-gh');
  });
  after(async () => {
    await acting?.close();
    await github?.close();
  });
  afterEach(() => (github.limitRefresh = undefined));

  it('a 429 with a near Retry-After on a refresh is waited out, and the refresh sent again: the call succeeds', async () => {
    let limited = 0;
    github.limitRefresh = () =>
      limited++ === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit.' } } : undefined;
    const before = refreshes();
    const result = await call('alice');
    expect(result.isError, sentence(result)).to.not.equal(true);
    expect(refreshes() - before, 'refreshes sent: the limited one and its resend').to.equal(2);
    // The refresh token was spent once, by the resend.
    expect(github.refreshUses.map((u) => u.ok)).to.deep.equal([true]);
  });

  it('a far one: no renewal is sent until then; a token still valid serves, an expired one fails saying when', async () => {
    github.limitRefresh = () => ({ status: 429, headers: { 'retry-after': '600' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const before = refreshes();
    for (let i = 0; i < 2; i++) {
      const result = await call('alice');
      expect(result.isError, sentence(result)).to.not.equal(true);
    }
    expect(refreshes() - before, 'the first renewal met the limit; the next was not sent').to.equal(1);
    // Bob's token has expired already: his call cannot go on the old token, and says when the renewal may be tried.
    github.tokenSeconds = 1;
    await link('bob', 'bob-gh');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const result = await call('bob');
    expect(result.isError).to.equal(true);
    expect(sentence(result)).to.match(/GitHub's token endpoint: POST \/login\/oauth\/access_token was not sent: .*Retry after (59\d|600) seconds \(at .+Z\)/);
    expect(JSON.stringify(result), 'the result').to.contain('upstream_rate_limited');
    expect(refreshes() - before).to.equal(1);
  });
});
