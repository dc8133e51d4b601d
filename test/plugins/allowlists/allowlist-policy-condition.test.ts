import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ACCOUNT } from '../atlassian/atlassian-calls.js';
import { tokensFileFolder } from '../../support/auth-fixture.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';
import { runCli } from '../../support/run-cli.js';
import { textOf } from '../../support/test-kernel.js';

const CONTRACTOR = 'contractor-token-5f0c1d2e3a4b';
const STAFF = 'staff-token-9a8b7c6d5e4f';

/**
 * Contractors reach acme/app and the PLAT project only, the rest of the staff everything: the allowlists as a
 * rule's condition, scoped per group. The deny holds except when every resource the request names is listed.
 */
const POLICY = `version: 1
rules:
  - id: contractors-scope
    effect: deny
    reason: Contractors work on acme/app and PLAT only.
    match: { groups: [contractors], vendors: [github, jira] }
    except: { resources: { repos: [acme/app], jiraProjects: [PLAT] } }
  - id: reads
    effect: allow
    match: { readOnly: true }
`;

// Over Streamable HTTP with named principals (a tokens file): the official SDK client, one loopback mock.
describe('Allowlists as policy conditions: `resources` scopes them per group', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let dir: string;
  let contractor: Client;
  let staff: Client;
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const sent = (): string[] => mock.requests.map((r) => `${r.method} ${r.path}`);

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', /.*/, { body: { key: 'PLAT-1', fields: { summary: 'x' }, items: [] } });
    const tokens = tokensFileFolder('allowlist-policy-', [
      { token: CONTRACTOR, subject: 'carol', groups: ['contractors'] },
      { token: STAFF, subject: 'sam', groups: ['staff'] },
    ]);
    dir = tokens.dir;
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    server = await startHttpServer({
      cwd: dir,
      env: {
        ...tokens.env,
        ...ACCOUNT,
        MCP_POLICY_FILE: join(dir, 'policy.yaml'),
        GITHUB_API_URL: mock.url,
        GITHUB_TOKEN: 'ghp_allowlistPolicyToken0123456789abcd',
        JIRA_BASE_URL: mock.url,
        JIRA_DEPLOYMENT: 'cloud',
      },
    });
    contractor = await connectHttp(server.url, CONTRACTOR);
    staff = await connectHttp(server.url, STAFF);
  });
  after(async () => {
    await contractor?.close();
    await staff?.close();
    await server?.stop();
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (mock.requests.length = 0));

  it('a contractor reads acme/app; a repository off their list is refused by the rule, nothing sent', async () => {
    const ok = await call(contractor, 'github_get', { path: '/repos/acme/app/readme' });
    expect(ok.isError, textOf(ok)).to.not.equal(true);
    const off = await call(contractor, 'github_get', { path: '/repos/acme/payroll/readme' });
    expect(off.isError).to.equal(true);
    expect(off._meta).to.deep.include({ code: 'policy_denied' });
    expect(off._meta?.decision).to.deep.include({ effect: 'deny', ruleId: 'contractors-scope' });
    expect(textOf(off)).to.contain('Contractors work on acme/app and PLAT only.');
    expect(sent()).to.deep.equal(['GET /repos/acme/app/readme']);
  });

  it('the same request by the staff runs: the condition is the group’s, not the server’s', async () => {
    const ok = await call(staff, 'github_get', { path: '/repos/acme/payroll/readme' });
    expect(ok.isError, textOf(ok)).to.not.equal(true);
    expect(sent()).to.deep.equal(['GET /repos/acme/payroll/readme']);
  });

  it('attacks on the condition: GraphQL arguments, a search qualifier, a request naming nothing, a Jira key', async () => {
    const graphql = await call(contractor, 'github_graphql', { query: 'query { repository(owner: "acme", name: "payroll") { name } }' });
    expect(graphql._meta).to.deep.include({ code: 'policy_denied' });
    // One listed and one not: every resource named must be listed.
    const mixed = await call(contractor, 'github_search_issues', { query: 'repo:acme/app repo:acme/payroll bug' });
    expect(mixed._meta).to.deep.include({ code: 'policy_denied' });
    // A request that names no repository (the caller's account) does not meet the condition: the deny holds.
    const naming = await call(contractor, 'github_get', { path: '/user' });
    expect(naming._meta).to.deep.include({ code: 'policy_denied' });
    const jira = await call(contractor, 'jira_get_issue', { issueKey: 'SEC-4' });
    expect(jira._meta).to.deep.include({ code: 'policy_denied' });
    const listed = await call(contractor, 'jira_get_issue', { issueKey: 'PLAT-1' });
    expect(listed.isError, textOf(listed)).to.not.equal(true);
    // Only the listed issue was read (with its own follow-ups: comments, the project's permissions).
    expect(sent()[0]).to.equal('GET /rest/api/3/issue/PLAT-1');
    expect(sent().join('\n')).to.not.match(/SEC|payroll|\/user/);
  });

  it('a redirect hop to a repository off the list is decided by the same rule', async () => {
    mock.on('GET', '/repos/acme/app/contents/x', { status: 302, headers: { location: `${mock.url}/repos/acme/payroll/contents/x` } });
    const hop = await call(contractor, 'github_get', { path: '/repos/acme/app/contents/x' });
    expect(hop._meta).to.deep.include({ code: 'policy_denied' });
    expect(sent()).to.deep.equal(['GET /repos/acme/app/contents/x']);
  });

  it('policy check refuses an entry of the wrong shape, naming where', async () => {
    writeFileSync(join(dir, 'bad.yaml'), POLICY.replace('repos: [acme/app]', 'repos: [acme]'));
    const run = await runCli(['policy', 'check', join(dir, 'bad.yaml')]);
    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.contain('rules[0].except.resources.repos');
  });
});
