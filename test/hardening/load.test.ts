import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { tokensFileFolder } from '../support/auth-fixture.js';
import { canary, vendorCanaries } from '../support/canaries.js';
import { hardeningRuns } from '../support/generated-calls.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { connectHttpAs, startHttpServer, type AnyClient, type HttpServerProcess } from '../support/sdk-client.js';
import { serveTaggedData, tagsIn } from '../support/tagged-vendor.js';
import { VendorMocks } from '../support/vendor-mocks.js';

const PRINCIPALS = hardeningRuns('HARDENING_LOAD_PRINCIPALS', 12);
const SECONDS = hardeningRuns('HARDENING_LOAD_SECONDS', 8);
const IN_FLIGHT = 2;

interface Principal {
  tag: string;
  token: string;
  client: AnyClient;
}

/** What the run came to; every count of something wrong must stay 0. */
const figures = { calls: 0, artifactReads: 0, foreignReadsRefused: 0, unexpectedErrors: 0, wrongDeliveries: 0, latenciesMs: [] as number[] };
const problems: string[] = [];

describe(`hardening: ${PRINCIPALS} principals at once over Streamable HTTP for ${SECONDS} s (tokens, SQLite store, artifacts)`, function () {
  this.timeout(SECONDS * 1000 + 60_000);
  let mocks: VendorMocks;
  let server: HttpServerProcess;
  const principals: Principal[] = [];

  before(async () => {
    mocks = await VendorMocks.start(vendorCanaries());
    serveTaggedData(mocks);
    const people = Array.from({ length: PRINCIPALS }, (_, i) => ({
      tag: `p${String(i).padStart(2, '0')}-${randomBytes(3).toString('hex')}`,
      token: canary('mcp-bearer-'),
    }));
    const { dir: cwd, env: auth } = tokensFileFolder(
      'mcp-devtools-load-',
      people.map((p) => ({ token: p.token, subject: p.tag })),
    );
    leakAudit.watchPath(cwd);
    server = await startHttpServer({
      cwd,
      env: {
        ...mocks.env(),
        ...auth,
        MCP_STORE_URL: `sqlite://${join(cwd, 'store.db')}`,
        MCP_STRUCTURED_OUTPUT: 'true',
        MCP_STRUCTURED_MAX_BYTES: '16384',
        MCP_AUDIT_LOG: join(cwd, 'audit.jsonl'),
      },
    });
    // The 1.x client: the 2025-era stateless path most deployed clients take, under load (the 2026-07-28 path
    // is under load in the e2e and replica tests).
    for (const p of people) principals.push({ ...p, client: (await connectHttpAs('sdk1', server.url, p.token)).client });
  });
  after(async () => {
    for (const p of principals) await p.client.close().catch(() => {});
    await server?.stop();
    for (const line of server?.stderr ?? []) leakAudit.transcript('load server stderr', line);
    await mocks?.close();
  });

  it('serves every principal only its own results and artifacts, with no unexpected error', async () => {
    const deadline = Date.now() + SECONDS * 1000;
    const workers = principals.flatMap((p) => Array.from({ length: IN_FLIGHT }, (_, w) => work(p, w, deadline)));
    await Promise.all(workers);
    const sorted = [...figures.latenciesMs].sort((a, b) => a - b);
    const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
    process.stdout.write(
      `\n  load: ${PRINCIPALS} principals x ${IN_FLIGHT} in flight for ${SECONDS} s: ${figures.calls} tool calls (${Math.round(figures.calls / SECONDS)}/s), ` +
        `${figures.artifactReads} artifact reads, ${figures.foreignReadsRefused} foreign artifact reads refused; latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ` +
        `unexpected errors ${figures.unexpectedErrors}, wrong-principal deliveries ${figures.wrongDeliveries}\n`,
    );
    expect(problems.slice(0, 10)).to.deep.equal([]);
    expect(figures.unexpectedErrors + figures.wrongDeliveries).to.equal(0);
    expect(figures.foreignReadsRefused).to.be.greaterThan(0);
    mocks.expectEveryRequestInBounds();
  });

  /** One worker of one principal: tagged calls in a loop until the deadline, each result checked. */
  async function work(p: Principal, worker: number, deadline: number): Promise<void> {
    for (let i = 0; Date.now() < deadline; i++) {
      const kind = (i + worker) % 3;
      if (kind === 0) await runList(p);
      else if (kind === 1) await jobLog(p, 100 + ((i * 7 + worker) % 50));
      else await pipelines(p);
    }
  }

  async function call(p: Principal, tool: string, args: Record<string, unknown>): Promise<CallToolResult | undefined> {
    const started = performance.now();
    try {
      const result = (await p.client.callTool({ name: tool, arguments: args })) as CallToolResult;
      figures.calls++;
      figures.latenciesMs.push(performance.now() - started);
      leakAudit.transcript(`load result of ${tool}`, JSON.stringify(result));
      return result;
    } catch (error) {
      figures.unexpectedErrors++;
      problems.push(`${p.tag} ${tool}: ${(error as Error).message}`);
      return undefined;
    }
  }

  function expectOk(p: Principal, tool: string, result: CallToolResult | undefined): string | undefined {
    if (result === undefined) return undefined;
    const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
    if (result.isError) {
      figures.unexpectedErrors++;
      problems.push(`${p.tag} ${tool}: ${text.slice(0, 300)}`);
      return undefined;
    }
    return text;
  }

  /** The data is the principal's own and no one else's. */
  function expectOwn(p: Principal, what: string, text: string): void {
    const tags = tagsIn(text);
    if (tags.size !== 1 || !tags.has(p.tag)) {
      figures.wrongDeliveries++;
      problems.push(`${p.tag} got ${[...tags].join(', ') || 'no tag'} in ${what}`);
    }
  }

  async function readArtifact(p: Principal, artifactId: string): Promise<string | undefined> {
    const parts: Buffer[] = [];
    for (let offset = 0; ;) {
      const text = expectOk(p, 'artifact_read', await call(p, 'artifact_read', { artifactId, offset }));
      if (text === undefined) return undefined;
      figures.artifactReads++;
      const chunk = JSON.parse(text) as { data: string; nextOffset: number; eof: boolean };
      parts.push(Buffer.from(chunk.data, 'base64'));
      if (chunk.eof) return Buffer.concat(parts).toString('utf8');
      offset = chunk.nextOffset;
    }
  }

  /** Another principal asks for the same artifact: it must not exist for them. */
  async function expectForeignReadRefused(p: Principal, artifactId: string): Promise<void> {
    const other = principals[(principals.indexOf(p) + 1 + Math.floor(Math.random() * (principals.length - 1))) % principals.length]!;
    const result = await call(other, 'artifact_read', { artifactId });
    const text = (result?.content[0] as { text?: string } | undefined)?.text ?? '';
    if (result?.isError && text.includes('Code: artifact_not_found')) figures.foreignReadsRefused++;
    else {
      figures.wrongDeliveries++;
      problems.push(`${other.tag} read ${p.tag}'s artifact ${artifactId}: ${text.slice(0, 200)}`);
    }
  }

  async function runList(p: Principal): Promise<void> {
    const result = await call(p, 'github_list_workflow_runs', { owner: p.tag, repo: 'app', perPage: 60 });
    const text = expectOk(p, 'github_list_workflow_runs', result);
    if (text === undefined) return;
    expectOwn(p, 'a run list', text);
    const incomplete = (result!.structuredContent as { incomplete?: { artifactId: string | null } } | undefined)?.incomplete;
    if (incomplete?.artifactId == null) {
      figures.unexpectedErrors++;
      problems.push(`${p.tag}: the run list did not spill to an artifact: ${JSON.stringify(result!.structuredContent).slice(0, 200)}`);
      return;
    }
    const whole = await readArtifact(p, incomplete.artifactId);
    if (whole !== undefined) expectOwn(p, `structured artifact ${incomplete.artifactId}`, whole);
    await expectForeignReadRefused(p, incomplete.artifactId);
  }

  async function jobLog(p: Principal, job: number): Promise<void> {
    const text = expectOk(p, 'github_get_job_logs', await call(p, 'github_get_job_logs', { owner: p.tag, repo: 'app', jobId: job, tailLines: 20 }));
    if (text === undefined) return;
    expectOwn(p, 'a log tail', text);
    const artifactId = /artifactId "([0-9a-f]{32})"/.exec(text)?.[1];
    if (artifactId === undefined) {
      figures.unexpectedErrors++;
      problems.push(`${p.tag}: the log names no artifact: ${text.slice(0, 200)}`);
      return;
    }
    const whole = await readArtifact(p, artifactId);
    if (whole !== undefined) expectOwn(p, `log artifact ${artifactId}`, whole);
    if (job % 5 === 0) await expectForeignReadRefused(p, artifactId);
  }

  async function pipelines(p: Principal): Promise<void> {
    const result = await call(p, 'circleci_get', { path: `/project/gh/${p.tag}/app/pipeline` });
    const text = expectOk(p, 'circleci_get', result);
    if (text === undefined) return;
    expectOwn(p, 'a pipeline list', text);
    expectOwn(p, 'a pipeline list (structured)', JSON.stringify(result!.structuredContent));
  }
});
