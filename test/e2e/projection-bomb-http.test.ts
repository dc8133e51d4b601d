import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { auditLines } from '../support/audit-records.js';
import { fixtureConfig } from '../support/fixture-plugin.js';
import { projectionBombs } from '../support/projection-bombs.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const BODY = { id: 1296269, name: 'app', full_name: 'acme/app', private: false, owner: { login: 'acme', id: 1 } };
const BOMB = Array(22).fill('[@,@]').join(' | ');
const FLOOD_MS = 3000;

const textOf = (result: CallToolResult): string => (result.content as Array<{ text: string }>)[0]!.text;

/**
 * Seen from outside, as an operator would: `dist/cli.js --transport http`, two SDK clients over Streamable HTTP
 * sending projection bombs back to back, while a third client makes ordinary calls and /healthz is polled.
 * Before the fix, the first 22-pipe bomb took the process down (heap out of memory at 4.4 GB).
 */
describe('projection bombs over HTTP: other callers and /healthz are served meanwhile (dist/cli.js)', function () {
  this.timeout(60_000);
  let mock: MockUpstream;
  let server: HttpServerProcess;
  let audit: string;
  const clients: Client[] = [];

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', '/repo', { body: BODY });
    const cwd = mkdtempSync(join(tmpdir(), 'bomb-http-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), fixtureConfig().content);
    audit = join(cwd, 'audit.jsonl');
    server = await startHttpServer({ cwd, env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'bomb-http-token-9f8e', MCP_AUDIT_LOG: audit } });
    for (let i = 0; i < 3; i++) clients.push(await connectHttp(server.url));
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server?.stop();
    await mock?.close();
  });

  it('stops every bomb with projection_too_large while ordinary calls and /healthz keep being answered', async () => {
    const [bomber1, bomber2, ordinary] = clients as [Client, Client, Client];
    const healthz = server.url.replace('/mcp', '/healthz');
    const stopAt = Date.now() + FLOOD_MS;
    const bombTimes: number[] = [];
    const bombCodes = new Set<string>();
    const bomb = async (client: Client): Promise<void> => {
      const kinds = [BOMB, ...projectionBombs()];
      for (let i = 0; Date.now() < stopAt; i++) {
        const started = performance.now();
        const result = (await client.callTool({ name: 'fixture_get', arguments: { path: '/repo', jq: kinds[i % kinds.length] } })) as CallToolResult;
        bombTimes.push(performance.now() - started);
        bombCodes.add(/\nCode: (\w+)$/.exec(textOf(result))?.[1] ?? 'success');
      }
    };
    const healthTimes: number[] = [];
    const poll = async (): Promise<void> => {
      while (Date.now() < stopAt) {
        const started = performance.now();
        const response = await fetch(healthz);
        expect(response.status).to.equal(200);
        expect(await response.json()).to.deep.equal({ status: 'ok' });
        healthTimes.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const ordinaryTimes: number[] = [];
    const serve = async (): Promise<void> => {
      while (Date.now() < stopAt) {
        const started = performance.now();
        const result = (await ordinary.callTool({ name: 'fixture_get', arguments: { path: '/repo', jq: 'full_name' } })) as CallToolResult;
        expect(textOf(result)).to.equal('acme/app');
        ordinaryTimes.push(performance.now() - started);
      }
    };
    await Promise.all([bomb(bomber1), bomb(bomber2), poll(), serve()]);

    expect([...bombCodes]).to.deep.equal(['projection_too_large']);
    expect(server.process.exitCode).to.equal(null);
    const stopped = auditLines(audit).filter((r) => r.outcome.status === 'error' && r.outcome.code === 'projection_too_large');
    expect(stopped).to.have.length(bombTimes.length);
    const p = (xs: number[], q: number): string => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(1);
    process.stdout.write(
      `\n      over ${FLOOD_MS / 1000} s: ${bombTimes.length} bombs stopped (p50 ${p(bombTimes, 0.5)} ms, max ${p(bombTimes, 1)} ms); ` +
        `${ordinaryTimes.length} ordinary calls (p50 ${p(ordinaryTimes, 0.5)} ms, max ${p(ordinaryTimes, 1)} ms); ` +
        `${healthTimes.length} /healthz answers (p50 ${p(healthTimes, 0.5)} ms, max ${p(healthTimes, 1)} ms)\n`,
    );
    expect(ordinaryTimes.length).to.be.greaterThan(0);
    expect(healthTimes.length).to.be.greaterThan(0);
  });
});
