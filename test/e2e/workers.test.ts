import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { workerCount } from '../../server/cli/worker-count.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, jiraSearchBody, serveJiraSearch } from '../bench/jira-bodies.js';
import { cpuTicksOf } from '../bench/process-cpu.js';
import { runCli } from '../support/run-cli.js';
import { startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

interface RpcAnswer {
  result?: { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
  error?: { message: string };
}

/** One JSON-RPC tools/call on a connection of its own, so the cluster hands each to the next worker. */
function callOnNewConnection(url: string, name: string, args: Record<string, unknown>): Promise<RpcAnswer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', connection: 'close' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcAnswer);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The worker pids the primary names in its "listening on ... (N workers)" line. */
function workerPids(server: HttpServerProcess): number[] {
  const line = server.stderr.find((l) => /listening on .* workers\)/.test(l));
  expect(line, server.stderr.join('\n')).to.be.a('string');
  return (JSON.parse(line!) as { pids: number[] }).pids;
}

describe('--workers N: node:cluster workers behind one HTTP port (dist/cli.js)', function () {
  this.timeout(120_000);
  let mock: MockUpstream;
  let storeDir: string;

  before(async () => {
    mock = await MockUpstream.start();
    storeDir = mkdtempSync(join(tmpdir(), 'mcp-workers-'));
  });
  after(async () => {
    await mock.close();
  });

  const env = (store: string): Record<string, string> => ({
    ...JIRA_CREDENTIALS,
    JIRA_BASE_URL: mock.url,
    MCP_STORE_URL: store,
    MCP_STRUCTURED_OUTPUT: 'true',
    LOG_LEVEL: 'warn',
  });

  it('counts workers: a number as given, auto as one per core, anything else refused with what to write', () => {
    expect(workerCount('3', 8)).to.equal(3);
    expect(workerCount('auto', 8)).to.equal(8);
    expect(workerCount('AUTO', 2)).to.equal(2);
    expect(() => workerCount('two', 2)).to.throw(/MCP_WORKERS="two" is not a number of workers: give a whole number from 1, or "auto"/);
    expect(() => workerCount('0', 2)).to.throw(/not a number of workers/);
  });

  it('refuses more than one worker on the memory:// store, saying which store to set', async () => {
    const run = await runCli(['--transport', 'http', '--port', '0', '--workers', '2'], { env: env('memory://') });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('MCP_WORKERS=2 needs a store the workers share, and MCP_STORE_URL is memory://');
    expect(run.stderr).to.include('sqlite:///absolute/path.db');
    expect(run.stderr).not.to.include('listening on');
  });

  it('refuses workers over stdio, which serves only the client that started it', async () => {
    const run = await runCli(['--workers', '2'], { env: env(`sqlite://${join(storeDir, 'stdio.db')}`) });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('applies to the HTTP transport only');
  });

  it('serves one port from every worker, each reading what another saved in the shared store', async () => {
    serveJiraSearch(mock, jiraSearchBody(600 * 1024));
    const server = await startHttpServer({ args: ['--workers', '2'], env: env(`sqlite://${join(storeDir, 'shared.db')}`) });
    try {
      const pids = workerPids(server);
      expect(pids).to.have.length(2);
      expect(pids).not.to.include(server.process.pid);
      const before = pids.map(cpuTicksOf);
      // The value spills to an artifact on whichever worker took the call...
      const spilled = await callOnNewConnection(server.url, 'jira_get', { path: SEARCH_PATH, outputFormat: 'json' });
      const artifactId = (spilled.result?.structuredContent?.incomplete as { artifactId: string } | undefined)?.artifactId;
      expect(artifactId, JSON.stringify(spilled).slice(0, 300)).to.match(/^[0-9a-f]{32}$/);
      // ...and every fresh connection, whichever worker it lands on, reads it back.
      const reads = await Promise.all(Array.from({ length: 12 }, () => callOnNewConnection(server.url, 'artifact_read', { artifactId, offset: 0 })));
      for (const read of reads) expect(JSON.parse(read.result!.content[0]!.text)).to.include({ artifactId, offset: 0, eof: false });
      for (let i = 0; i < 12; i++) await callOnNewConnection(server.url, 'jira_get', { path: SEARCH_PATH, outputFormat: 'json' });
      const used = pids.map((pid, i) => cpuTicksOf(pid) - before[i]!);
      for (const ticks of used) expect(ticks, `CPU ticks per worker: ${used.join(', ')}`).to.be.above(0);
    } finally {
      expect(await server.stop('SIGTERM')).to.equal(0);
    }
  });

  it('drains every worker on SIGTERM: a call in flight completes, then every process exits', async () => {
    mock.reset();
    mock.on('GET', '/rest/api/3/myself', { delayMs: 1500, body: { accountId: 'abc', displayName: 'Bench' } });
    const server = await startHttpServer({ args: ['--workers', '2'], env: env(`sqlite://${join(storeDir, 'drain.db')}`) });
    const pids = workerPids(server);
    const inFlight = callOnNewConnection(server.url, 'jira_get', { path: '/rest/api/3/myself' });
    while (mock.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    const code = server.stop('SIGTERM');
    const answer = await inFlight;
    expect(answer.result?.isError, JSON.stringify(answer).slice(0, 300)).to.not.equal(true);
    expect(answer.result!.content[0]!.text).to.include('Bench');
    expect(await code).to.equal(0);
    for (const pid of pids) expect(alive(pid), `worker ${pid} still running`).to.equal(false);
  });

  it('replaces a worker that dies, and keeps serving', async () => {
    mock.reset();
    mock.on('GET', '/rest/api/3/myself', { body: { accountId: 'abc', displayName: 'Bench' } });
    const server = await startHttpServer({ args: ['--workers', '2'], env: env(`sqlite://${join(storeDir, 'replace.db')}`) });
    try {
      const [victim] = workerPids(server);
      process.kill(victim!, 'SIGKILL');
      while (!server.stderr.some((l) => l.includes('a worker died; starting another in its place'))) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 4; i++)
        expect((await callOnNewConnection(server.url, 'jira_get', { path: '/rest/api/3/myself' })).result!.content[0]!.text).to.include('Bench');
    } finally {
      expect(await server.stop('SIGTERM')).to.equal(0);
    }
  });
});
