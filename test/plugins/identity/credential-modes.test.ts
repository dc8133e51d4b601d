import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../../../core/identity/principal.js';
import type { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { IDENTITY_TOKENS } from '../../../plugins/identity/identity-tokens.js';
import { rejection } from '../../support/async.js';
import { GithubOAuthMock } from '../../support/identity/github-oauth-mock.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const SERVICE_TOKEN = 'ghp_service-token-of-the-bot-5d1e0c';
const alice: Principal = { subject: 'alice', groups: ['developers'], via: 'tokens' };
const bob: Principal = { subject: 'bob', groups: ['developers'], via: 'tokens' };
const APP = { clientId: 'Iv1.modes-client', clientSecret: 'modes-client-secret-51aa07', type: 'oauth-app' as const };
const ISSUE = { owner: 'acme', repo: 'app', title: 'Flaky deploy step' };

/** The sentence of an error result (its first line, after `Error: `). */
function sentence(result: CallToolResult): string {
  return textOf(result)
    .split('\n')[0]!
    .replace(/^Error: /, '');
}

/** Who GitHub saw on each issue created: the login the bearer token acts as. */
function issueAuthors(github: GithubOAuthMock): string[] {
  return github.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/issues'))
    .map((r) => github.loginOf(/^bearer (.+)$/i.exec(r.headers.authorization ?? '')?.[1] ?? '') ?? 'rejected');
}

function sentServiceToken(github: GithubOAuthMock): boolean {
  return github.requests.some((r) => (r.headers.authorization ?? '').includes(SERVICE_TOKEN));
}

async function kernelIn(mode: string, github: GithubOAuthMock, env: Record<string, string> = {}): Promise<TestKernel> {
  return startTestKernel({
    configFile: { content: JSON.stringify({ plugins: ['github'] }) },
    env: {
      MCP_TOOLSETS: 'all',
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: SERVICE_TOKEN,
      GITHUB_CREDENTIALS: mode,
      MCP_VAULT_KEY: randomBytes(32).toString('hex'),
      GITHUB_OAUTH_CLIENT_ID: APP.clientId,
      GITHUB_OAUTH_CLIENT_SECRET: APP.clientSecret,
      MCP_CONSOLE_PUBLIC_URL: 'http://127.0.0.1:9',
      ...env,
    },
  });
}

/** alice links her GitHub account through the web flow, as the console or /identity/link would. */
async function link(kernel: TestKernel, github: GithubOAuthMock, who: Principal, login: string): Promise<void> {
  const linking = kernel.kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
  const linker = { principal: who.subject, session: `session-${who.subject}` };
  const { url, state } = await linking.start('github', linker);
  await linking.callback('github', github.approve(url, login), state, linker);
}

describe('Credential modes (GITHUB_CREDENTIALS) in the call path', function () {
  this.timeout(20_000);
  let github: GithubOAuthMock;
  let kernel: TestKernel | undefined;

  beforeEach(async () => {
    github = await GithubOAuthMock.start(APP);
    github.serviceToken(SERVICE_TOKEN, 'acme-bot');
    github.serveIssues();
  });
  afterEach(async () => {
    await kernel?.close();
    kernel = undefined;
    await github.close();
  });

  const createIssue = (who: Principal): Promise<CallToolResult> => kernel!.call('github_create_issue', ISSUE, who);

  it('user: a linked caller acts as themselves, and _meta names their login; the service token is never sent', async () => {
    kernel = await kernelIn('user', github);
    await link(kernel, github, alice, 'alice-gh');
    const result = await createIssue(alice);
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(issueAuthors(github)).to.deep.equal(['alice-gh']);
    expect(result._meta!['mcp-devtools/upstream']).to.deep.include({ kind: 'user', vendor: 'github', login: 'alice-gh', credential: 'alice-gh' });
    expect(sentServiceToken(github)).to.equal(false);
  });

  it('user: a caller who has not linked is refused in one sentence saying where to link, and nothing is sent', async () => {
    kernel = await kernelIn('user', github);
    const result = await createIssue(bob);
    expect(result.isError).to.equal(true);
    expect(sentence(result)).to.equal('You have not linked your GitHub account yet; link it with mcp-devtools accounts connect github.');
    expect(textOf(result)).to.include('Code: missing_credentials');
    expect(issueAuthors(github)).to.deep.equal([]);
    expect(sentServiceToken(github)).to.equal(false);
  });

  it('user: the refusal names the Connected accounts page when the console runs', async () => {
    kernel = await kernelIn('user', github, { MCP_CONSOLE: 'true', MCP_AUTH_MODE: 'tokens' });
    kernel.kernel.resolve<{ consoleUrl?: string }>(IDENTITY_TOKENS.Places).consoleUrl = 'https://mcp.acme.example';
    const result = await createIssue(bob);
    expect(sentence(result)).to.equal('You have not linked your GitHub account yet; link it at https://mcp.acme.example/console/accounts.');
  });

  it('user-or-service: the linked account for who has one, the service credential for the others', async () => {
    kernel = await kernelIn('user-or-service', github);
    await link(kernel, github, alice, 'alice-gh');
    const mine = await createIssue(alice);
    const theirs = await createIssue(bob);
    expect(mine.isError, textOf(mine)).to.equal(undefined);
    expect(theirs.isError, textOf(theirs)).to.equal(undefined);
    expect(issueAuthors(github)).to.deep.equal(['alice-gh', 'acme-bot']);
    expect(theirs._meta?.['mcp-devtools/upstream']).to.equal(undefined);
  });

  it('service (the default): the service credential acts even for a caller who linked', async () => {
    kernel = await kernelIn('service', github);
    await link(kernel, github, alice, 'alice-gh');
    const result = await createIssue(alice);
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(issueAuthors(github)).to.deep.equal(['acme-bot']);
  });

  it('a 401 for a linked account marks the link stale and says to link again; the service token is not tried', async () => {
    kernel = await kernelIn('user-or-service', github);
    await link(kernel, github, alice, 'alice-gh');
    github.revokeAll('alice-gh');
    const refused = await createIssue(alice);
    expect(refused.isError).to.equal(true);
    expect(sentence(refused)).to.equal('GitHub no longer accepts your linked account; link your account again with mcp-devtools accounts connect github.');
    const again = await createIssue(alice);
    expect(sentence(again)).to.equal('GitHub no longer accepts your linked account; link your account again with mcp-devtools accounts connect github.');
    expect(sentServiceToken(github)).to.equal(false);
    const linking = kernel.kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
    expect((await linking.accounts('alice'))[0]!.stale).to.have.property('reason', 'GitHub answered 401');
  });

  it('disconnecting stops the next call at once (and revokes the grant at GitHub)', async () => {
    kernel = await kernelIn('user', github);
    await link(kernel, github, alice, 'alice-gh');
    expect((await createIssue(alice)).isError).to.equal(undefined);
    expect(issueAuthors(github)).to.deep.equal(['alice-gh']);
    const linking = kernel.kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
    expect(await linking.disconnect('github', 'alice')).to.deep.equal({ removed: true, revoked: true });
    const after = await createIssue(alice);
    expect(sentence(after)).to.match(/^You have not linked your GitHub account yet/);
    expect(github.requests.filter((r) => r.path.endsWith('/issues'))).to.have.length(1);
  });

  it('refuses to start in a user mode without a vault key, in one sentence', async () => {
    const error = await rejection(kernelIn('user', github, { MCP_VAULT_KEY: '' }));
    expect(error.message).to.include(
      "GITHUB_CREDENTIALS=user acts with people's linked accounts, which need the vault: set MCP_VAULT_KEY or MCP_VAULT_KEY_FILE",
    );
  });
});
