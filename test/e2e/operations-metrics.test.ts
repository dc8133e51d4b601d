// The metrics an on-call engineer alerts on, scraped from the built server after real calls against vendor
// mocks: the latency of each request to a vendor (a slow vendor shows in the histogram's buckets), a vendor's
// 503 counted as status class 5xx apart from the call's outcome upstream_server_error, the HTTP requests
// answered by route and status, authentication refusals by reason, and the approvals waiting.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { circleciFixture } from '../fixtures/circleci/circleci-api.js';
import { githubFixture } from '../fixtures/github/github-api.js';
import { tokensFileFolder } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { parseExposition, valueOf, type Sample } from '../support/prometheus-text.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const POLICY = `version: 1
rules:
  - id: deletes-need-approval
    effect: approval_required
    reason: Deletes are reviewed first.
    match: { tools: ["*_delete"] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;

const RUN = '/repos/acme/api/actions/runs/30433642';
const metricsUrl = (mcpUrl: string): string => mcpUrl.replace(/\/mcp$/, '/metrics');

async function scrape(url: string, token?: string): Promise<Sample[]> {
  const response = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  expect(response.status).to.equal(200);
  return parseExposition(await response.text());
}

describe('the operations metrics of the HTTP transport, after calls against a slow and a failing vendor', () => {
  let github: MockUpstream;
  let circleci: MockUpstream;
  let server: HttpServerProcess;
  let client: Client;
  let samples: Sample[];

  before(async () => {
    [github, circleci] = await Promise.all([MockUpstream.start(), MockUpstream.start()]);
    const dir = mkdtempSync(join(tmpdir(), 'operations-metrics-'));
    writeFileSync(join(dir, 'policy.yaml'), POLICY);
    server = await startHttpServer({
      cwd: dir,
      env: {
        MCP_POLICY_FILE: join(dir, 'policy.yaml'),
        MCP_UPSTREAM_RETRIES: '0',
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: canary('ghp_'),
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: canary('CCIPAT_'),
      },
    });
    client = await connectHttp(server.url);
    // GitHub answers after 1.2 s; CircleCI at once, but with a 503 for one path.
    github.on('GET', RUN, { delayMs: 1200, body: githubFixture('workflow-run.json') });
    circleci.on('GET', '/api/v2/workflow/:id', { body: circleciFixture('workflow.json') });
    circleci.on('GET', '/api/v2/me', {
      status: 503,
      body: 'upstream connect error or disconnect/reset before headers',
      headers: { 'content-type': 'text/plain' },
    });
    await client.callTool({ name: 'github_get', arguments: { path: RUN } });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/workflow/fda08377-fe7e-46b1-8992-3a7aaecac9c3' } });
    await client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
    await client.callTool({ name: 'circleci_delete', arguments: { path: '/project/gh/acme/api/envvar/DEPLOY_KEY' } });
    await fetch(server.url.replace(/\/mcp$/, '/no-such-page'));
    samples = await scrape(metricsUrl(server.url));
  });
  after(async () => {
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await client?.close();
    await server?.stop();
    await Promise.all([github, circleci].map((m) => m?.close()));
  });

  const bucket = (labels: Record<string, string>): number | undefined => valueOf(samples, 'mcp_devtools_upstream_request_duration_seconds_bucket', labels);

  it('puts the slow vendor in the histogram above 1 s, and the fast one below it', () => {
    expect(bucket({ vendor: 'github', method: 'GET', status_class: '2xx', le: '1' })).to.equal(0);
    expect(bucket({ vendor: 'github', method: 'GET', status_class: '2xx', le: '2.5' })).to.equal(1);
    expect(bucket({ vendor: 'circleci', method: 'GET', status_class: '2xx', le: '1' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_upstream_request_duration_seconds_sum', { vendor: 'github', method: 'GET', status_class: '2xx' })).to.be.at.least(
      1.2,
    );
  });

  it("counts a vendor's 503 as status class 5xx, and the call's outcome as upstream_server_error", () => {
    expect(valueOf(samples, 'mcp_devtools_upstream_request_duration_seconds_count', { vendor: 'circleci', method: 'GET', status_class: '5xx' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'circleci', status: '503', outcome: 'upstream_server_error' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_upstream_requests_total', { vendor: 'circleci', status: '200', outcome: 'ok' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'circleci_get', outcome: 'upstream_server_error' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_tool_calls_total', { tool: 'circleci_get', outcome: 'ok' })).to.equal(1);
  });

  it('counts the HTTP requests answered by route and status', () => {
    expect(valueOf(samples, 'mcp_devtools_http_requests_total', { route: '/mcp', status: '200' })).to.be.at.least(4);
    expect(valueOf(samples, 'mcp_devtools_http_requests_total', { route: 'other', status: '404' })).to.equal(1);
  });

  it('shows the approval the delete waits for', async () => {
    expect(valueOf(samples, 'mcp_devtools_approvals_pending')).to.equal(1);
    expect(circleci.requests.filter((r) => r.method === 'DELETE')).to.deep.equal([]);
  });
});

describe('authentication failures by reason, counted at /metrics', () => {
  const scraper = canary('metrics-');
  const caller = canary('mcp-caller-');
  let server: HttpServerProcess;

  before(async () => {
    const { dir, env } = tokensFileFolder('operations-auth-', [{ token: caller, subject: 'alice' }]);
    server = await startHttpServer({ cwd: dir, env: { ...env, MCP_METRICS_TOKEN: scraper } });
  });
  after(async () => {
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await server?.stop();
  });

  it('counts a request without a token as missing_token and one with an unknown token as invalid_token', async () => {
    const ping = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await ping({})).status).to.equal(401);
    expect((await ping({ authorization: `Bearer ${canary('not-a-caller-')}` })).status).to.equal(401);
    expect((await ping({ authorization: `Bearer ${canary('not-a-caller-')}` })).status).to.equal(401);
    const samples = await scrape(metricsUrl(server.url), scraper);
    expect(valueOf(samples, 'mcp_devtools_auth_failures_total', { reason: 'missing_token' })).to.equal(1);
    expect(valueOf(samples, 'mcp_devtools_auth_failures_total', { reason: 'invalid_token' })).to.equal(2);
    expect(valueOf(samples, 'mcp_devtools_auth_failures_total', { reason: 'unverifiable' })).to.equal(0);
    expect(valueOf(samples, 'mcp_devtools_http_requests_total', { route: '/mcp', status: '401' })).to.equal(3);
  });
});
