// Prometheus metrics, scraped as Prometheus would after real calls through the built server: at /metrics on
// the HTTP transport (open on loopback without authentication, only with MCP_ADMIN_TOKEN with it), and on
// MCP_METRICS_PORT for a stdio server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileFolder } from '../support/auth-fixture.js';
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
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'github', status: '404', outcome: 'upstream_http_error' })).to.equal(1);
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

describe('/metrics when callers must authenticate', () => {
  const admin = canary('admin-');
  const caller = canary('mcp-caller-');
  const servers: HttpServerProcess[] = [];

  const start = async (env: Record<string, string>): Promise<HttpServerProcess> => {
    const folder = tokensFileFolder('metrics-auth-', [{ token: caller, subject: 'alice' }]);
    const server = await startHttpServer({ cwd: folder.dir, env: { ...folder.env, ...env } });
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) {
      for (const line of server.stderr) leakAudit.transcript('HTTP server stderr', line);
      await server.stop();
    }
  });

  it('is refused without MCP_ADMIN_TOKEN, saying which setting turns it on', async () => {
    const server = await start({});
    const scraped = await scrape(metricsUrl(server.url), caller);
    expect(scraped.status).to.equal(403);
    expect(scraped.text).to.contain('MCP_ADMIN_TOKEN');
  });

  it("answers only a scrape that sends MCP_ADMIN_TOKEN; a caller's token is not enough", async () => {
    const server = await start({ MCP_ADMIN_TOKEN: admin });
    const url = metricsUrl(server.url);
    expect((await scrape(url)).status).to.equal(401);
    expect((await scrape(url, caller)).status).to.equal(401);
    const scraped = await scrape(url, admin);
    expect(scraped.status).to.equal(200);
    expect(scraped.text).to.contain('# TYPE mcp_devtools_tool_calls_total counter');
    expect(server.stderr.join('\n')).not.to.contain(caller);
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

  it('refuses to expose metrics beyond loopback without MCP_ADMIN_TOKEN', async () => {
    const ran = await runCli([], { env: { MCP_METRICS_PORT: String(await freePort()), MCP_METRICS_HOST: '0.0.0.0' } });
    expect(ran.code).to.equal(1);
    expect(ran.stderr).to.contain('MCP_METRICS_HOST=0.0.0.0 is reachable beyond this machine: set MCP_ADMIN_TOKEN');
  });
});
