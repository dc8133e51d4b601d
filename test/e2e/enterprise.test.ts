import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import type { Decision } from '../../plugins/policy/engine/policy-engine.js';
import { verifyAuditLog } from '../../plugins/policy/audit/verify-audit-log.js';
import { ENTERPRISE_PLUGIN_PATH, vendorEnv, writeEnterpriseFiles } from '../support/enterprise-fixture.js';
import { AUDIENCE, FakeIssuer } from '../support/fake-issuer.js';
import { runCli } from '../support/run-cli.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

/** What the test reads of an audit record: the call, and an approver's decision when it is one. */
interface AuditLine {
  tool: string;
  principal: { subject: string };
  outcome: { code?: string };
  approval?: { status: string; requestedBy: string; reason?: string };
}

const TOKENS = { alice: 'tok-alice-e2e-31f0a9', carol: 'tok-carol-e2e-8d2c41', rene: 'tok-rene-e2e-c07b5e', dave: 'tok-dave-e2e-5a9f13' };
const GROUPS = { alice: ['developers'], carol: ['contractors'], rene: ['developers', 'release-engineers'], dave: [] as string[] };
const ADMIN = 'admin-e2e-77c1d0aa';
/** The approvers (MCP_APPROVER_GROUPS=approvers): they decide held calls with their own tokens, and run no agent. */
const APPROVER_TOKENS = { olga: 'tok-olga-e2e-4e71b2', paul: 'tok-paul-e2e-93d0c8' };
type Person = keyof typeof TOKENS;

/** A working folder with the config file, the tokens file and the policy, as an operator would lay it out. */
function deployment(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-e2e-'));
  writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins: [ENTERPRISE_PLUGIN_PATH] }));
  const callers = (Object.keys(TOKENS) as Person[]).map((p) => ({ token: TOKENS[p], subject: p, groups: GROUPS[p] }));
  const approvers = Object.entries(APPROVER_TOKENS).map(([subject, token]) => ({ token, subject, groups: ['approvers'] }));
  return {
    dir,
    env: { ...writeEnterpriseFiles(dir, [...callers, ...approvers], ADMIN), MCP_APPROVER_GROUPS: 'approvers', MCP_AUDIT_LOG: join(dir, 'audit.jsonl') },
  };
}

function decisionOf(result: CallToolResult): Decision {
  return result._meta?.decision as Decision;
}

describe('enterprise deployment end to end (Streamable HTTP, bearer tokens, four principals)', function () {
  this.timeout(60_000);
  let jira: MockUpstream;
  let circleci: MockUpstream;
  let server: HttpServerProcess;
  let setup: ReturnType<typeof deployment>;
  let serverEnv: Record<string, string>;
  const clients = {} as Record<Person, Client>;
  /** Every result of the run, with who asked: each is checked for the upstream identity at the end. */
  const results: Array<{ who: Person; tool: string; result: CallToolResult }> = [];

  const call = async (who: Person, tool: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = (await clients[who].callTool({ name: tool, arguments: args })) as CallToolResult;
    results.push({ who, tool, result });
    return result;
  };
  const admin = (path: string, init: RequestInit = {}, token = ADMIN): Promise<Response> =>
    fetch(server.url.replace(/\/mcp$/, path), { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const requests = (mock: MockUpstream): string[] => mock.requests.map((r) => `${r.method} ${r.path}`);

  before(async () => {
    jira = await MockUpstream.start();
    circleci = await MockUpstream.start();
    jira.on('GET', '/rest/api/3/issue/:key', (r) => ({
      body: { key: r.params.key, fields: { summary: 'Flaky deploy step', status: { name: 'In Progress' } } },
    }));
    jira.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10042', key: 'PLAT-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10042' } });
    jira.on('PUT', '/rest/api/3/issue/:key', { status: 204 });
    jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
    jira.on('GET', '/rest/api/3/issue/NOPE-1', {
      status: 404,
      body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} },
    });
    circleci.on('GET', '/api/v2/project/gh/acme/app/pipeline', {
      body: { items: [{ id: '5034460f-c7c4-4c43-9457-de07e2029e7b', state: 'created', number: 42 }], next_page_token: null },
    });
    circleci.on('POST', '/api/v2/project/gh/acme/app/pipeline', {
      status: 201,
      body: { id: '6a3e1c2b-0000-4c43-9457-de07e2029e7b', state: 'pending', number: 43 },
    });
    setup = deployment();
    serverEnv = { ...vendorEnv(jira.url, circleci.url), ...setup.env, MCP_STORE_URL: `sqlite://${join(setup.dir, 'store.db')}` };
    server = await startHttpServer({ cwd: setup.dir, env: serverEnv });
    for (const who of Object.keys(TOKENS) as Person[]) clients[who] = await connectHttp(server.url, TOKENS[who]);
  });

  after(async () => {
    for (const client of Object.values(clients)) await client.close().catch(() => {});
    await server?.stop();
    await jira?.close();
    await circleci?.close();
  });

  it('answers 401 with WWW-Authenticate to a request without a valid token', async () => {
    for (const authorization of [undefined, `Bearer ${TOKENS.alice}x`]) {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(/^Bearer realm="mcp-devtools"/);
    }
  });

  it('lets a contractor read and nothing more', async () => {
    const read = await call('carol', 'jira_get', { path: '/rest/api/3/issue/PLAT-1', jq: 'fields.status.name' });
    expect(read.isError).to.equal(undefined);
    expect((read.content[0] as { text: string }).text).to.equal('In Progress');
    const write = await call('carol', 'jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'x' } } });
    expect(write.isError).to.equal(true);
    expect(write._meta).to.deep.include({ code: 'policy_denied' });
    expect(decisionOf(write)).to.include({ effect: 'deny', ruleId: 'contractors-read-only', reason: 'Contractors have read-only access.' });
    expect(requests(jira)).to.deep.equal(['GET /rest/api/3/issue/PLAT-1']);
  });

  it('lets developers create and edit issues, and denies what no rule allows', async () => {
    expect(
      (await call('alice', 'jira_post', { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'Flaky deploy step' } } })).isError,
    ).to.equal(undefined);
    expect(
      (await call('alice', 'jira_put', { path: '/rest/api/3/issue/PLAT-42', body: { fields: { summary: 'Flaky deploy step on main' } } })).isError,
    ).to.equal(undefined);
    const dave = await call('dave', 'jira_post', { path: '/rest/api/3/issue', body: {} });
    expect(decisionOf(dave)).to.include({ effect: 'deny', ruleId: null });
    // The vendor plugin is loaded from its own path (as a third-party one is): its errors keep their code.
    const missing = await call('alice', 'jira_get', { path: '/rest/api/3/issue/NOPE-1' });
    expect((missing.content[0] as { text: string }).text).to.match(
      /^Error: Jira answered 404 Not Found for GET \/rest\/api\/3\/issue\/NOPE-1\.[^]*\nCode: upstream_http_error\nHTTP Status: 404\n/,
    );
    expect(requests(jira).slice(1)).to.deep.equal(['POST /rest/api/3/issue', 'PUT /rest/api/3/issue/PLAT-42', 'GET /rest/api/3/issue/NOPE-1']);
    expect(JSON.parse(jira.requests[1]!.body)).to.deep.equal({ fields: { project: { key: 'PLAT' }, summary: 'Flaky deploy step' } });
  });

  it('keeps the production CircleCI credential for release engineers', async () => {
    const alice = await call('alice', 'circleci_get', { path: '/api/v2/project/gh/acme/app/pipeline' });
    expect(decisionOf(alice)).to.include({ effect: 'deny', ruleId: 'production-circleci-release-engineers-only' });
    expect(circleci.requests).to.have.length(0);
    const rene = await call('rene', 'circleci_get', { path: '/api/v2/project/gh/acme/app/pipeline', jq: 'items[*].number' });
    expect((rene.content[0] as { text: string }).text).to.equal('[1]: 42');
    expect(requests(circleci)).to.deep.equal(['GET /api/v2/project/gh/acme/app/pipeline']);
  });

  it('holds a delete for approval; after a grant (CLI, as the approver whose token it sends) it runs once for the same principal and arguments', async () => {
    const held = await call('alice', 'jira_delete', { path: '/rest/api/3/issue/PLAT-42' });
    expect(held._meta).to.deep.include({ code: 'approval_required' });
    const { approvalId, expiresAt } = decisionOf(held);
    expect(Date.parse(expiresAt!)).to.be.greaterThan(Date.now());

    const cli = { cwd: setup.dir, env: serverEnv };
    const list = await runCli(['approvals', 'list', '--json'], cli);
    expect(list.code, list.stderr).to.equal(0);
    expect((JSON.parse(list.stdout) as Array<{ id: string; subject: string; request: unknown }>).find((a) => a.id === approvalId)).to.deep.include({
      subject: 'alice',
      request: { method: 'DELETE', path: '/rest/api/3/issue/PLAT-42' },
    });
    const origin = server.url.replace(/\/mcp$/, '');
    const as = (who: keyof typeof APPROVER_TOKENS) => ({ cwd: setup.dir, env: { MCP_APPROVER_TOKEN: APPROVER_TOKENS[who] } });
    const grant = await runCli(['approvals', 'grant', approvalId!, '--server', origin, '--yes'], as('olga'));
    expect(grant.code, grant.stderr).to.equal(0);
    expect(grant.stdout).to.match(new RegExp(`^${approvalId} granted by olga; the caller's next identical call runs once, until `));
    // A second approver comes too late: told who decided, and how, and nothing changes.
    const late = await runCli(['approvals', 'reject', approvalId!, '--server', origin, '--reason', 'PLAT-42 holds the audit trail.', '--yes'], as('paul'));
    expect([late.code, late.stderr]).to.deep.equal([1, `mcp-devtools: ${origin} answered 409: Approval ${approvalId} was already decided: granted by olga.\n`]);

    const otherPrincipal = await call('rene', 'jira_delete', { path: '/rest/api/3/issue/PLAT-42' });
    const otherArgs = await call('alice', 'jira_delete', { path: '/rest/api/3/issue/PLAT-43' });
    for (const other of [otherPrincipal, otherArgs]) {
      expect(other._meta).to.deep.include({ code: 'approval_required' });
      expect(decisionOf(other).approvalId).not.to.equal(approvalId);
    }
    expect(jira.requests.filter((r) => r.method === 'DELETE')).to.have.length(0);

    const granted = await call('alice', 'jira_delete', { path: '/rest/api/3/issue/PLAT-42' });
    expect(granted.isError).to.equal(undefined);
    const replay = await call('alice', 'jira_delete', { path: '/rest/api/3/issue/PLAT-42' });
    expect(replay._meta).to.deep.include({ code: 'approval_required' });
    expect(decisionOf(replay).approvalId).not.to.equal(approvalId);
    expect(requests(jira).filter((r) => r.startsWith('DELETE'))).to.deep.equal(['DELETE /rest/api/3/issue/PLAT-42']);
  });

  it('refuses a call whose approval was rejected (admin endpoint)', async () => {
    const held = await call('rene', 'circleci_post', { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } });
    const { approvalId } = decisionOf(held);
    expect(decisionOf(held)).to.include({ effect: 'approval_required', ruleId: 'deletes-need-approval' });
    const listed = (await (await admin('/admin/approvals')).json()) as { approvals: Array<{ id: string }> };
    expect(listed.approvals.map((a) => a.id)).to.include(approvalId);
    const blank = await admin(`/admin/approvals/${approvalId}/reject`, { method: 'POST' }, APPROVER_TOKENS.paul);
    expect([blank.status, ((await blank.json()) as { error: string }).error]).to.deep.equal([
      400,
      'Say why you reject the call: the reason is told to the caller.',
    ]);
    const rejected = await admin(
      `/admin/approvals/${approvalId}/reject`,
      { method: 'POST', body: JSON.stringify({ reason: 'No deploys during the freeze.' }), headers: { 'content-type': 'application/json' } },
      APPROVER_TOKENS.paul,
    );
    expect(rejected.status).to.equal(200);
    const retry = await call('rene', 'circleci_post', { path: '/api/v2/project/gh/acme/app/pipeline', body: { branch: 'main' } });
    expect(retry._meta).to.deep.include({ code: 'policy_denied' });
    expect(decisionOf(retry)).to.include({ effect: 'deny', approvalId });
    expect(decisionOf(retry).reason).to.match(/^paul rejected approval apr-[0-9a-f]{24} for this call: No deploys during the freeze\./);
    expect(circleci.requests.filter((r) => r.method === 'POST')).to.have.length(0);
  });

  it('put the upstream identity that acted on every result, and never a secret', () => {
    expect(results.length).to.be.greaterThan(12);
    // The retries that followed a decision (olga's grant, paul's rejection) also say which approval and why.
    const followsDecision = (r: CallToolResult): boolean => /Ran on approval apr-|rejected approval apr-/.test(JSON.stringify(r.content));
    expect(results.filter((r) => followsDecision(r.result)).map((r) => `${r.who} ${r.tool}`)).to.deep.equal(['alice jira_delete', 'rene circleci_post']);
    for (const { who, tool, result } of results) {
      const vendor = tool.split('_')[0]!;
      const mock = vendor === 'jira' ? jira : circleci;
      const credential = vendor === 'jira' ? 'jira-bot' : 'circleci-deployer';
      expect(result._meta?.['mcp-devtools/upstream'], `${who} ${tool}`).to.deep.equal({
        vendor,
        credential,
        host: new URL(mock.url).host,
        environment: 'production',
      });
      expect(JSON.stringify(result)).not.to.match(/fingerprint|canary-secret/);
      const refused = result.isError === true && /\nCode: (policy_denied|approval_required)$/.test((result.content[0] as { text: string }).text);
      // Beside ours, a 2026-07-28 result carries the protocol's own keys (`io.modelcontextprotocol/serverInfo`).
      const ours = Object.keys(result._meta!).filter((k) => !k.startsWith('io.modelcontextprotocol/'));
      const expected = [...(refused ? ['code', 'decision'] : []), ...(followsDecision(result) ? ['mcp-devtools/approval'] : []), 'mcp-devtools/upstream'];
      expect(ours.sort(), `${who} ${tool}`).to.deep.equal(expected);
    }
  });

  it('wrote an audit log of the whole run that verifies, and fails to verify after any tampering', async () => {
    expect(await server.stop()).to.equal(0);
    const log = join(setup.dir, 'audit.jsonl');
    const records = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditLine);
    // The server's chain: every call, and every decision, made through the server by the CLI or the admin endpoint.
    const calls = records.filter((r) => r.approval === undefined);
    expect(calls.map((r) => `${r.principal.subject} ${r.tool}`)).to.deep.equal(results.map((r) => `${r.who} ${r.tool}`));
    const codeOf = (r: CallToolResult): string | undefined => /\nCode: (\w+)/.exec((r.content[0] as { text: string }).text)?.[1];
    expect(calls.map((r) => r.outcome.code)).to.deep.equal(results.map((r) => (r.result.isError ? codeOf(r.result) : undefined)));
    const decisionsIn = (lines: AuditLine[]): string[] =>
      lines
        .filter((r) => r.approval !== undefined)
        .map((r) => `${r.principal.subject} ${r.approval!.status} ${r.approval!.requestedBy} ${r.tool}: ${r.approval!.reason ?? ''}`);
    expect(decisionsIn(records)).to.deep.equal(['olga granted alice jira_delete: ', 'paul rejected rene circleci_post: No deploys during the freeze.']);
    // The CLI keeps no chain of its own: its decisions are the server's.
    expect(readdirSync(setup.dir).filter((f) => f.startsWith('audit.jsonl.') && !f.endsWith('.head'))).to.deep.equal([]);
    const intact = await runCli(['audit', 'verify', log]);
    expect(intact.code, intact.stdout).to.equal(0);
    expect(intact.stdout).to.equal(`${log}: OK, ${records.length} records, chain intact.\n`);

    const copy = (edit: (lines: string[]) => string[]): string => {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-tamper-'));
      const path = join(dir, 'audit.jsonl');
      copyFileSync(`${log}.head`, `${path}.head`);
      writeFileSync(path, `${edit(readFileSync(log, 'utf8').split('\n').filter(Boolean)).join('\n')}\n`);
      return path;
    };
    const edited = await runCli([
      'audit',
      'verify',
      copy((lines) => lines.map((l, i) => (i === 1 ? l.replace('"contractors-read-only"', '"everyone-reads"') : l))),
    ]);
    expect(edited.code).to.equal(1);
    expect(edited.stdout).to.contain('line 2 (record 2): its content does not match its hash: the record was edited.');
    const cut = await runCli(['audit', 'verify', copy((lines) => lines.slice(0, -1))]);
    expect(cut.code).to.equal(1);
    expect(cut.stdout).to.contain(`records were removed from the end.`);
    expect((await verifyAuditLog(copy((lines) => lines.filter((_, i) => i !== 4)))).ok).to.equal(false);
    expect((await verifyAuditLog(copy((lines) => [lines[1]!, lines[0]!, ...lines.slice(2)]))).ok).to.equal(false);
  });
});

describe('enterprise deployment end to end: expiry and read-only servers', function () {
  this.timeout(60_000);
  let jira: MockUpstream;
  let circleci: MockUpstream;

  before(async () => {
    jira = await MockUpstream.start();
    circleci = await MockUpstream.start();
    jira.on('DELETE', '/rest/api/3/issue/:key', { status: 204 });
    jira.on('GET', '/rest/api/3/myself', { body: { accountId: '5b10a2844c20165700ede21g' } });
  });
  after(async () => {
    await jira.close();
    await circleci.close();
  });

  it('lets an approval expire: a late grant is refused and the retry is held anew', async () => {
    const setup = deployment();
    const server = await startHttpServer({ cwd: setup.dir, env: { ...vendorEnv(jira.url, circleci.url), ...setup.env, MCP_APPROVAL_TTL_SECONDS: '1' } });
    const alice = await connectHttp(server.url, TOKENS.alice);
    try {
      const held = (await alice.callTool({ name: 'jira_delete', arguments: { path: '/rest/api/3/issue/PLAT-5' } })) as CallToolResult;
      const { approvalId } = decisionOf(held);
      await new Promise((r) => setTimeout(r, 1300));
      const late = await fetch(server.url.replace(/\/mcp$/, `/admin/approvals/${approvalId}/grant`), {
        method: 'POST',
        headers: { authorization: `Bearer ${APPROVER_TOKENS.olga}` },
      });
      expect([late.status, ((await late.json()) as { error: string }).error]).to.deep.equal([404, `Approval ${approvalId} was not found or has expired.`]);
      const retry = (await alice.callTool({ name: 'jira_delete', arguments: { path: '/rest/api/3/issue/PLAT-5' } })) as CallToolResult;
      expect(retry._meta).to.deep.include({ code: 'approval_required' });
      expect(decisionOf(retry).approvalId).not.to.equal(approvalId);
      expect(jira.requests).to.have.length(0);
    } finally {
      await alice.close();
      await server.stop();
    }
  });

  it('offers only read-only tools under MCP_READ_ONLY, and refuses the others as unknown', async () => {
    const setup = deployment();
    const server = await startHttpServer({ cwd: setup.dir, env: { ...vendorEnv(jira.url, circleci.url), ...setup.env, MCP_READ_ONLY: 'true' } });
    const rene = await connectHttp(server.url, TOKENS.rene);
    try {
      expect((await rene.listTools()).tools.map((t) => t.name).sort()).to.deep.equal(['artifact_read', 'circleci_get', 'jira_get']);
      const error = await rene.callTool({ name: 'jira_delete', arguments: { path: '/rest/api/3/issue/PLAT-5' } }).catch((e: unknown) => e as Error);
      expect((error as Error).message).to.contain('Unknown tool: jira_delete');
      const read = (await rene.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself' } })) as CallToolResult;
      expect(read._meta?.['mcp-devtools/upstream']).to.deep.include({ vendor: 'jira' });
      expect(jira.requests.map((r) => r.method)).to.deep.equal(['GET']);
    } finally {
      await rene.close();
      await server.stop();
    }
  });
});

describe('enterprise deployment end to end: OIDC bearer tokens', function () {
  this.timeout(60_000);

  it('takes the principal from a JWT of the configured issuer, and answers 401 to an expired one', async () => {
    const idp = await FakeIssuer.start();
    const jira = await MockUpstream.start();
    jira.on('POST', '/rest/api/3/issue', { status: 201, body: { key: 'PLAT-43' } });
    const setup = deployment();
    const env = {
      ...vendorEnv(jira.url, jira.url),
      ...setup.env,
      MCP_AUTH_MODE: 'oidc',
      MCP_OIDC_ISSUER: idp.issuer,
      MCP_EGRESS_ALLOW: new URL(idp.issuer).host,
      MCP_OIDC_AUDIENCE: AUDIENCE,
      MCP_OIDC_GROUPS_CLAIM: 'realm_access.roles',
    };
    const server = await startHttpServer({ cwd: setup.dir, env });
    try {
      const developer = await connectHttp(server.url, await idp.sign({ sub: 'alice', realm_access: { roles: ['developers'] } }));
      const contractor = await connectHttp(server.url, await idp.sign({ sub: 'carol', realm_access: { roles: ['contractors'] } }));
      const args = { name: 'jira_post', arguments: { path: '/rest/api/3/issue', body: { fields: { project: { key: 'PLAT' }, summary: 'x' } } } };
      expect(((await developer.callTool(args)) as CallToolResult).isError).to.equal(undefined);
      expect(decisionOf((await contractor.callTool(args)) as CallToolResult)).to.include({ ruleId: 'contractors-read-only' });
      await developer.close();
      await contractor.close();
      const expired = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${await idp.sign({ sub: 'alice' }, { expiresIn: -3600 })}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(expired.status).to.equal(401);
      expect(expired.headers.get('www-authenticate')).to.equal(
        `Bearer realm="mcp-devtools", resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="the token is not valid: 'exp' claim timestamp check failed."`,
      );
      expect(jira.requests.map((r) => r.method)).to.deep.equal(['POST']);
    } finally {
      await server.stop();
      await jira.close();
      await idp.close();
    }
  });
});
