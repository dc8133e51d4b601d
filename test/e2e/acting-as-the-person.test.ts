import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { auditLines } from '../support/audit-records.js';
import { GithubOAuthMock } from '../support/identity/github-oauth-mock.js';
import { sqliteBytes } from '../support/identity/vault-fixture.js';
import { PUBLIC_URL, sentence, startActingServer, type ActingServer } from '../support/identity/acting-server.js';

const TOKENS = { alice: 'tok-alice-acting-6c1f0e', bob: 'tok-bob-acting-93ad27' };
const SERVICE_TOKEN = 'ghp_service-token-acting-e2e-41b7d2';
const APP = { clientId: 'Iv1.e2e-acting-client', clientSecret: 'e2e-acting-client-secret-8f02aa', type: 'oauth-app' as const };

const bearerOf = (authorization: string | undefined): string => /^bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';

describe('Acting as the person over Streamable HTTP (GITHUB_CREDENTIALS=user, two principals)', function () {
  this.timeout(60_000);
  let github: GithubOAuthMock;
  let acting: ActingServer;
  let dir: string;
  let linkRoute: ActingServer['linkRoute'];
  let connect: ActingServer['connect'];

  before(async () => {
    github = await GithubOAuthMock.start(APP);
    github.serviceToken(SERVICE_TOKEN, 'acme-bot');
    github.serveIssues();
    acting = await startActingServer(TOKENS, ['github'], {
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: SERVICE_TOKEN,
      GITHUB_CREDENTIALS: 'user',
      GITHUB_OAUTH_CLIENT_ID: APP.clientId,
      GITHUB_OAUTH_CLIENT_SECRET: APP.clientSecret,
    });
    ({ dir, linkRoute, connect } = acting);
  });
  after(async () => {
    await acting?.close();
    await github?.close();
  });

  it('alice links through the web flow; her github_create_issue reaches GitHub with her token and the audit names her login', async () => {
    const started = await linkRoute('/github', TOKENS.alice);
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const url = new URL(String(started.body.url));
    expect(url.searchParams.get('redirect_uri')).to.equal(`${PUBLIC_URL}/identity/callback/github`);
    // GitHub shows alice its consent page; she approves and comes back with a code.
    const code = github.approve(url.href, 'alice-gh');
    const linked = await linkRoute('/github/callback', TOKENS.alice, { code, state: started.body.state });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    expect(linked.body).to.include({ vendor: 'github', login: 'alice-gh' });
    expect(JSON.stringify(linked.body)).not.to.match(/gho_|access_token|refresh/i);

    const alice = await connect(TOKENS.alice);
    const result = (await alice.callTool({
      name: 'github_create_issue',
      arguments: { owner: 'acme', repo: 'app', title: 'Flaky deploy step' },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
    const sent = github.requests.filter((r) => r.path === '/api/v3/repos/acme/app/issues');
    expect(sent).to.have.length(1);
    expect(github.loginOf(bearerOf(sent[0]!.headers.authorization))).to.equal('alice-gh');
    expect(result._meta?.['mcp-devtools/upstream']).to.deep.include({ kind: 'user', vendor: 'github', login: 'alice-gh' });
    const audited = auditLines(join(dir, 'audit.jsonl')) as unknown as Array<{
      tool: string;
      principal: { subject: string };
      upstream: Record<string, unknown>;
    }>;
    expect(audited.find((r) => r.tool === 'github_create_issue' && r.principal.subject === 'alice')!.upstream).to.deep.include({
      kind: 'user',
      login: 'alice-gh',
    });
  });

  it('bob, who has not linked, is refused with the sentence saying where to link; the service token is never sent for him', async () => {
    const bob = await connect(TOKENS.bob);
    const before = github.requests.length;
    const result = (await bob.callTool({ name: 'github_create_issue', arguments: { owner: 'acme', repo: 'app', title: 'From bob' } })) as CallToolResult;
    expect(result.isError).to.equal(true);
    expect(sentence(result)).to.equal(`You have not linked your GitHub account yet; link it at ${PUBLIC_URL}/console/accounts.`);
    expect(github.requests.length).to.equal(before);
    expect(github.requests.some((r) => (r.headers.authorization ?? '').includes(SERVICE_TOKEN))).to.equal(false);
  });

  it("a code of alice's attempt brought with bob's token does not link anything, and alice's attempt still works", async () => {
    const started = await linkRoute('/github', TOKENS.alice);
    const code = github.approve(String(started.body.url), 'alice-gh');
    const stolen = await linkRoute('/github/callback', TOKENS.bob, { code, state: started.body.state });
    expect(stolen.status).to.equal(400);
    expect(stolen.body.error).to.equal('This GitHub link attempt was started by someone else or in another session; start linking from your own session.');
    const mine = await linkRoute('/github/callback', TOKENS.alice, { code, state: started.body.state });
    expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
    const replay = await linkRoute('/github/callback', TOKENS.alice, { code, state: started.body.state });
    expect(replay.body.error).to.equal('This GitHub link attempt was already used; start linking again if your account is not linked.');
  });

  it('the SQLite file holds no token GitHub issued, in clear', () => {
    const bytes = sqliteBytes(join(dir, 'store.db'));
    expect(bytes).to.include('identity-vault');
    const issued = github.issuedTokens;
    expect(issued.length).to.be.greaterThan(0);
    for (const token of issued) expect(bytes.includes(token), 'a token in clear in the store').to.equal(false);
  });
});
