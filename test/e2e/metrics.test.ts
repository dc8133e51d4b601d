// Prometheus metrics, scraped as Prometheus would after real calls through the built server: at /metrics on
// the HTTP transport (open on loopback without authentication, only with MCP_METRICS_TOKEN with it), and on
// MCP_METRICS_PORT for a stdio server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileFolder, tokensFileYaml } from '../support/auth-fixture.js';
import { eventually } from '../support/enterprise-fixture.js';
import { ConsoleClient } from '../console/support/console-client.js';
import { canary } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { freePort } from '../support/free-port.js';
import { parseExposition, valueOf, type Sample } from '../support/prometheus-text.js';
import { runCli } from '../support/run-cli.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const POLICY = `version: 1
rules:
  - id: no-jira-today
    effect: deny
    reason: Jira is closed for maintenance.
    match: { vendors: [jira] }
  - id: deletes-need-approval
    effect: approval_required
    reason: Deletes are reviewed first.
    match: { tools: ["*_delete"] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;

async function scrape(url: string, token?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

const metricsUrl = (mcpUrl: string): string => mcpUrl.replace(/\/mcp$/, '/metrics');

describe('Prometheus metrics at /metrics of the HTTP transport, after real calls', () => {
  let github: MockUpstream;
  let circleci: MockUpstream;
  let jira: MockUpstream;
  let server: HttpServerProcess;
  let client: Client;
  let samples: Sample[];

  before(async () => {
    [github, circleci, jira] = await Promise.all([MockUpstream.start(), MockUpstream.start(), MockUpstream.start()]);
    const dir = mkdtempSync(join(tmpdir(), 'metrics-e2e-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    server = await startHttpServer({
      cwd: dir,
      env: {
        MCP_POLICY_FILE: join(dir, 'policy.yaml'),
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: canary('ghp_'),
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: canary('CCIPAT_'),
        JIRA_BASE_URL: jira.url,
        ATLASSIAN_USER_EMAIL: 'bot@example.com',
        ATLASSIAN_API_TOKEN: canary('ATATT3x'),
      },
    });
    client = await connectHttp(server.url);
    circleci.on('GET', '/api/v2/me', { body: { login: 'bot' }, headers: { 'cache-control': 'max-age=60' } });
    github.on('GET', '/repos/acme/api/actions/jobs/7/logs', { body: 'step 1\nstep 2\nfailed\n', headers: { 'content-type': 'text/plain' } });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    await client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/myself' } });
    await client.callTool({ name: 'circleci_delete', arguments: { path: '/project/gh/acme/api/envvar/X' } });
    await client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/missing' } });
    await client.callTool({ name: 'github_get_job_logs', arguments: { owner: 'acme', repo: 'api', jobId: 7 } });
    const scraped = await scrape(metricsUrl(server.url));
    expect(scraped.status).to.equal(200);
    expect(scraped.type).to.match(/^text\/plain; version=0\.0\.4/);
    samples = parseExposition(scraped.text);
  });
  after(async () => {
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await client?.close();
    await server?.stop();
    await Promise.all([github, circleci, jira].map((m) => m?.close()));
  });

  it('counts tool calls by tool and outcome, and times them by tool', () => {
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'circleci_get', outcome: 'ok' })).to.equal(2);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'jira_get', outcome: 'policy_denied' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'circleci_delete', outcome: 'approval_required' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'github_get', outcome: 'upstream_http_error' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_tool_call_duration_seconds_count', { tool: 'circleci_get' })).to.equal(2);
    expect(valueOf(samples, 'mcp_devtools_tool_call_duration_seconds_bucket', { tool: 'circleci_get', le: '+Inf' })).to.equal(2);
    expect(valueOf(samples, 'mcp_devtools_tool_call_duration_seconds_sum', { tool: 'circleci_get' })).to.be.greaterThan(0);
  });

  it('counts the requests that reached a vendor, by status: a cache hit and a refused call send none', () => {
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'circleci', status: '200' })).to.equal(1);
    // Two: the missing repository, and job 7 itself, which the log's label reads for its run (the mock has no
    // such job: the log is labelled untrusted with a warning, and the call still succeeds).
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'github', status: '404', outcome: 'upstream_http_error' })).to.equal(2);
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'github', status: '200', outcome: 'ok' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'jira' })).to.equal(undefined);
    expect(circleci.requests).to.have.length(1);
  });

  it('counts cache lookups by result and policy decisions by effect', () => {
    expect(valueOf(samples, 'mcp_devtools_cache_lookups_total', { result: 'miss' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_cache_lookups_total', { result: 'hit' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_cache_lookups_total', { result: 'error' })).to.equal(0);
    expect(valueOf(samples, 'mcp_devtools_policy_decisions_total', { effect: 'allow' })).to.equal(4);
    expect(valueOf(samples, 'mcp_devtools_policy_decisions_total', { effect: 'deny' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_policy_decisions_total', { effect: 'approval_required' })).to.equal(1);
  });

  it('counts artifacts stored, shows the in-flight body bytes, and has the default process metrics', () => {
    expect(valueOf(samples, 'mcp_devtools_artifacts_stored_total')).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_artifact_bytes_stored_total')).to.equal(Buffer.byteLength('step 1\nstep 2\nfailed\n'));
    expect(valueOf(samples, 'mcp_devtools_inflight_body_bytes')).to.equal(0);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_in_flight')).to.equal(0);
    expect(valueOf(samples, 'process_cpu_seconds_total')).to.be.greaterThan(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).to.be.greaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
  });
});

describe('/metrics when callers must authenticate: a token of its own, MCP_METRICS_TOKEN', () => {
  const admin = canary('admin-');
  const scraper = canary('metrics-');
  const caller = canary('mcp-caller-');
  const approver = canary('mcp-approver-');
  const servers: HttpServerProcess[] = [];

  /** A server with a tokens file of a caller (alice) and an approver (olga, MCP_APPROVER_GROUPS=approvers). */
  const folder = (): { dir: string; env: Record<string, string> } => {
    const made = tokensFileFolder('metrics-auth-', [
      { token: caller, subject: 'alice' },
      { token: approver, subject: 'olga', groups: ['approvers'] },
    ]);
    return { dir: made.dir, env: { ...made.env, MCP_APPROVER_GROUPS: 'approvers' } };
  };
  const start = async (env: Record<string, string>): Promise<HttpServerProcess> => {
    const { dir, env: auth } = folder();
    const server = await startHttpServer({ cwd: dir, env: { ...auth, ...env } });
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) {
      for (const line of server.stderr) leakAudit.transcript('HTTP server stderr', line);
      await server.stop();
    }
  });

  it('is refused without MCP_METRICS_TOKEN, saying which setting turns it on', async () => {
    const server = await start({});
    const scraped = await scrape(metricsUrl(server.url), caller);
    expect(scraped.status).to.equal(403);
    expect(JSON.parse(scraped.text)).to.deep.equal({
      error: 'GET /metrics needs MCP_METRICS_TOKEN here (callers must authenticate): set it, and scrape with Authorization: Bearer $MCP_METRICS_TOKEN.',
    });
  });

  it("answers only a scrape that sends MCP_METRICS_TOKEN: not MCP_ADMIN_TOKEN, not a caller's or an approver's token", async () => {
    const server = await start({ MCP_METRICS_TOKEN: scraper, MCP_ADMIN_TOKEN: admin });
    const url = metricsUrl(server.url);
    for (const token of [undefined, caller, approver, admin]) {
      const refused = await scrape(url, token);
      expect([refused.status, JSON.parse(refused.text)], String(token)).to.deep.equal([
        401,
        { error: 'Send the metrics token: Authorization: Bearer $MCP_METRICS_TOKEN.' },
      ]);
    }
    const scraped = await scrape(url, scraper);
    expect(scraped.status).to.equal(200);
    expect(scraped.text).to.contain('# TYPE mcp_devtools_tool_calls_total counter');
    expect(server.stderr.join('\n')).not.to.contain(caller).and.not.to.contain('MCP_METRICS_TOKEN is not set');
  });

  it('keeps scraping with MCP_ADMIN_TOKEN when it is the only token (until 0.4.0), warning at start-up what to change', async () => {
    const server = await start({ MCP_ADMIN_TOKEN: admin });
    expect((await scrape(metricsUrl(server.url), admin)).status).to.equal(200);
    expect(JSON.parse((await scrape(metricsUrl(server.url), caller)).text)).to.deep.equal({
      error: 'Send the metrics token: Authorization: Bearer $MCP_ADMIN_TOKEN.',
    });
    const warning = server.stderr.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.startsWith('MCP_METRICS_TOKEN is not set'));
    expect(warning).to.deep.include({
      level: 40,
      msg: 'MCP_METRICS_TOKEN is not set, so /metrics still takes MCP_ADMIN_TOKEN, until 0.4.0: set MCP_METRICS_TOKEN to a token of its own and give the scraper that one (MCP_ADMIN_TOKEN only reads approvals, and never decides).',
    });
    // The scrape token of the migration still decides nothing.
    const decided = await fetch(server.url.replace(/\/mcp$/, '/admin/approvals/apr-4c9e0f0b8a6d2e1f3a5b7c9d/grant'), {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(decided.status).to.equal(403);
    expect(((await decided.json()) as { error: string }).error).to.match(/^MCP_ADMIN_TOKEN reads approvals but never decides them/);
  });

  it("refuses to start where the scrape token is also the admin token or a person's token, naming the setting", async () => {
    const refusals: Array<[Record<string, string>, string]> = [
      [
        { MCP_METRICS_TOKEN: admin, MCP_ADMIN_TOKEN: admin },
        'MCP_METRICS_TOKEN is the same as MCP_ADMIN_TOKEN: give the metrics scraper a token of its own, so that what scrapes /metrics cannot read approvals.',
      ],
      [
        { MCP_METRICS_TOKEN: approver },
        "MCP_METRICS_TOKEN is also the bearer token of olga in MCP_AUTH_TOKENS_FILE, so whatever scrapes /metrics could act as olga (call tools, and do what the plugins' routes let olga do): give each job a token of its own.",
      ],
      [
        { MCP_ADMIN_TOKEN: approver },
        "MCP_ADMIN_TOKEN is also the bearer token of olga in MCP_AUTH_TOKENS_FILE, so whatever scrapes /metrics or reads approvals with it could act as olga (call tools, and do what the plugins' routes let olga do): give each job a token of its own.",
      ],
      [
        { MCP_METRICS_TOKEN: scraper, MCP_ADMIN_TOKEN: caller },
        "MCP_ADMIN_TOKEN is also the bearer token of alice in MCP_AUTH_TOKENS_FILE, so whatever reads approvals with it could act as alice (call tools, and do what the plugins' routes let alice do): give each job a token of its own.",
      ],
    ];
    for (const [env, sentence] of refusals) {
      const { dir, env: auth } = folder();
      const ran = await runCli(['serve', '--transport', 'http', '--port', '0'], { cwd: dir, env: { ...auth, ...env } });
      expect([ran.code, ran.stderr.trim().split('\n').at(-1)], JSON.stringify(Object.keys(env))).to.deep.equal([1, `mcp-devtools: ${sentence}`]);
      for (const token of [admin, approver, caller, scraper]) expect(ran.stderr).not.to.contain(token);
    }
  });
});

describe("the scrape token stays no person's after start-up, whatever the tokens file comes to say", () => {
  it('refuses it on /mcp and at the console sign-in once the tokens file lists it, and still scrapes with it', async () => {
    const scraper = canary('metrics-');
    const paul = canary('mcp-approver-');
    const made = tokensFileFolder('metrics-later-', [{ token: canary('mcp-caller-'), subject: 'alice' }]);
    const server = await startHttpServer({
      cwd: made.dir,
      env: { ...made.env, MCP_METRICS_TOKEN: scraper, MCP_CONSOLE: 'true', MCP_APPROVER_GROUPS: 'approvers' },
    });
    try {
      // An operator's slip: the scrape token pasted into the tokens file as an approver's, beside a new approver.
      writeFileSync(
        made.env.MCP_AUTH_TOKENS_FILE!,
        tokensFileYaml([
          { token: scraper, subject: 'mallory', groups: ['approvers'] },
          { token: paul, subject: 'paul', groups: ['approvers'] },
        ]),
      );
      await eventually('the tokens file is reloaded', () => server.stderr.some((l) => l.includes('bearer tokens reloaded')));
      const base = server.url.replace(/\/mcp$/, '');
      expect((await ConsoleClient.signIn(base, paul)).session).to.be.a('string');
      const refused = await new ConsoleClient(base).submitToken(scraper);
      expect(refused.status).to.equal(401);
      const mcp = await fetch(server.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${scraper}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).to.equal(401);
      expect(mcp.headers.get('www-authenticate')).to.contain("the bearer token is MCP_METRICS_TOKEN, which is no person's token.");
      expect((await scrape(metricsUrl(server.url), scraper)).status).to.equal(200);
    } finally {
      for (const line of server.stderr) leakAudit.transcript('HTTP server stderr', line);
      await server.stop();
    }
  });
});

describe('MCP_METRICS_PORT: metrics of a stdio server', () => {
  it('serves /metrics on the port, counting the calls made over stdio', async () => {
    const mock = await MockUpstream.start();
    const port = await freePort();
    const session = await connectStdio({ env: { MCP_METRICS_PORT: String(port), CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: canary('CCIPAT_') } });
    try {
      mock.on('GET', '/api/v2/me', { body: { login: 'bot' } });
      await session.client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
      const scraped = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).to.equal(200);
      const samples = parseExposition(scraped.text);
      expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'circleci_get', outcome: 'ok' })).to.equal(1);
      expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'circleci', status: '200' })).to.equal(1);
      expect(await session.waitForStderr(`metrics at http://127.0.0.1:${port}/metrics`)).to.match(/^\{/);
    } finally {
      for (const line of session.stderr) leakAudit.transcript('stdio server stderr', line);
      await session.close();
      await mock.close();
    }
  });

  it('refuses to expose metrics beyond loopback without MCP_METRICS_TOKEN', async () => {
    const ran = await runCli([], { env: { MCP_METRICS_PORT: String(await freePort()), MCP_METRICS_HOST: '0.0.0.0' } });
    expect(ran.code).to.equal(1);
    expect(ran.stderr).to.contain('MCP_METRICS_HOST=0.0.0.0 is reachable beyond this machine: set MCP_METRICS_TOKEN');
  });
});
