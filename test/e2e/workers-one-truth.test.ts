// What a `--workers 2` server says about itself must be the whole server's: its audit (a chain per worker,
// each intact), its metrics (one scrape answers for every worker) and its log lines (each names its process).
// The review's input: `--workers 2`, MCP_AUDIT_LOG, 60 calls, then `audit verify`.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { AuditRecord } from '../../plugins/policy/audit/audit-record.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { callOnFreshConnection, onFreshConnection } from '../support/fresh-connection.js';
import { parseExposition } from '../support/prometheus-text.js';
import { runCli } from '../support/run-cli.js';
import { startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const CALLS = 60;

function seqsOf(path: string): number[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as AuditRecord).seq);
}

describe('--workers 2: one audit, one set of metrics, lines that name their worker (dist/cli.js)', function () {
  this.timeout(180_000);
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let log: string;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/rest/api/3/myself', { body: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'CI Bot' } });
    const dir = mkdtempSync(join(tmpdir(), 'mcp-workers-truth-'));
    log = join(dir, 'audit.jsonl');
    server = await startHttpServer({
      args: ['--workers', '2'],
      env: {
        JIRA_BASE_URL: mock.url,
        ATLASSIAN_USER_EMAIL: 'bot@acme.example',
        ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-workers-truth',
        MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
        MCP_AUDIT_LOG: log,
        LOG_LEVEL: 'info',
      },
    });
    // Four at a time, each on a connection of its own: the cluster spreads them over both workers.
    for (let i = 0; i < CALLS; i += 4) {
      const answers = await Promise.all(Array.from({ length: 4 }, () => callOnFreshConnection(server.url, 'jira_get', { path: '/rest/api/3/myself' })));
      for (const answer of answers) expect(JSON.stringify(answer)).to.include('CI Bot');
    }
  });
  after(async () => {
    await server?.stop();
    await mock?.close();
  });

  it('answers every scrape of /metrics for the whole server: the tool-call counter reads 60 each time', async () => {
    const url = server.url.replace(/\/mcp$/, '/metrics');
    const totals: number[] = [];
    for (let i = 0; i < 6; i++) {
      const scrape = await onFreshConnection(url);
      expect(scrape.status, scrape.text).to.equal(200);
      const calls = parseExposition(scrape.text).filter((s) => s.name === 'mcp_devtools_tool_calls_total' && s.labels.tool === 'jira_get');
      totals.push(calls.reduce((sum, s) => sum + s.value, 0));
      // One build_info, not one per worker summed into 2.
      expect(scrape.text).to.match(/^mcp_devtools_build_info\{version="[^"]+"\} 1$/m);
    }
    expect(totals).to.deep.equal(Array(6).fill(CALLS));
  });

  it("names each line's process: pid, hostname and the worker's number", () => {
    const pids = (JSON.parse(server.stderr.find((l) => /listening on .* workers\)/.test(l))!) as { pids: number[] }).pids;
    const calls = server.stderr
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'tool call');
    expect(calls).to.have.length(CALLS);
    for (const line of calls) {
      expect(pids).to.include(line.pid);
      expect(line.hostname).to.equal(hostname());
      expect(line.worker).to.be.oneOf([1, 2]);
    }
    // Both workers served, and a worker's number goes with one pid.
    const byWorker = new Map(calls.map((l) => [l.worker, l.pid]));
    expect([...byWorker.keys()].sort()).to.deep.equal([1, 2]);
    expect(new Set(byWorker.values()).size).to.equal(2);
  });

  it('keeps a chain per worker, continued by the worker that replaces a dead one: `audit verify` passes, each sequence runs 1..n', async () => {
    // Worker 1 dies; the primary starts another in its slot, which continues worker 1's chain.
    const lines = server.stderr.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const first = lines.find((l) => l.msg === 'tool call' && l.worker === 1)!.pid as number;
    process.kill(first, 'SIGKILL');
    while (!server.stderr.some((l) => l.includes('a worker died; starting another in its place'))) await new Promise((r) => setTimeout(r, 20));
    // Calls until the replacement has served some (it listens a moment after the death is noticed).
    const servedByReplacement = (): boolean =>
      server.stderr.some((l) => l.includes('"msg":"tool call"') && l.includes('"worker":1') && !l.includes(`"pid":${first},`));
    let after = 0;
    while (!servedByReplacement() || after < 8) {
      const answer = await callOnFreshConnection(server.url, 'jira_get', { path: '/rest/api/3/myself' }).catch(() => undefined);
      if (JSON.stringify(answer ?? '').includes('CI Bot')) after++;
      expect(after, 'calls made while waiting for the replacement').to.be.below(400);
    }
    expect(await server.stop('SIGTERM')).to.equal(0);
    const total = CALLS + after;
    const verify = await runCli(['audit', 'verify', log]);
    expect(verify.code, verify.stdout + verify.stderr).to.equal(0);
    expect(verify.stdout).to.include(`${log}: OK, ${total} records in 2 writers' chains, every chain intact.`);
    expect(existsSync(log)).to.equal(false);
    expect(existsSync(`${log}.w3`)).to.equal(false);
    const w1 = seqsOf(`${log}.w1`);
    const w2 = seqsOf(`${log}.w2`);
    expect(w1.length + w2.length).to.equal(total);
    expect(w1.length).to.be.above(0);
    expect(w2.length).to.be.above(0);
    expect(w1).to.deep.equal(Array.from({ length: w1.length }, (_, i) => i + 1));
    expect(w2).to.deep.equal(Array.from({ length: w2.length }, (_, i) => i + 1));
  });
});
