import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { checkRun, checkRunsReply, combinedStatusReply, REPO, SHA } from '../../fixtures/ci/ci-fixtures.js';
import { auditLines } from '../../support/audit-records.js';
import { tokensFileFolder } from '../../support/auth-fixture.js';
import { sharedRedisUrl, uniqueNamespace } from '../../support/redis.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';
import { envelope, httpDispatch, postJsonRpc, stdioDispatch, TASKS, taskSession } from '../../support/task-session.js';
import { textOf } from '../../support/test-kernel.js';
import { serveActionsFailure } from './ci-mocks.js';

// ci_wait answered as an MCP task (the tasks extension of 2026-07-28) to the official tasks client
// (@modelcontextprotocol/ext-tasks) over the built server, on HTTP and stdio: created at once, polled to the
// same answer as the synchronous wait, cancellable, and nobody's but its creator's.

const JOB_ID = 31933201456;
const ALICE = 'mcp_alice_taskToken_0123456789abcdef';
const BOB = 'mcp_bob_taskToken_0123456789abcdefgh';
const ARGS = { repo: REPO, ref: SHA, timeoutSeconds: 30 };

/** A commit whose two checks finish one after the other, a poll apart: lint passes, then the tests fail. */
function serveFinishingChecks(github: MockUpstream, storage: MockUpstream): void {
  serveActionsFailure(github, storage);
  let polls = 0;
  github.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, () => {
    polls++;
    return checkRunsReply([
      checkRun({ id: 100, name: 'lint', app: 'github-actions', conclusion: polls >= 2 ? 'success' : null }),
      checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: polls >= 4 ? 'failure' : null, annotations: 2 }),
    ]);
  });
}

/** A commit whose one check never finishes. */
function serveRunningCheck(github: MockUpstream): void {
  github.on(
    'GET',
    `/repos/${REPO}/commits/:ref/check-runs`,
    checkRunsReply([checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: null })]),
  );
  github.on('GET', `/repos/${REPO}/commits/:ref/status`, combinedStatusReply([]));
}

/** A result as JSON, its artifact ids (each call saves the log anew) made one. */
const comparable = (result: CallToolResult): unknown =>
  JSON.parse(
    JSON.stringify({ content: result.content, isError: result.isError, structuredContent: result.structuredContent }).replace(/[0-9a-f]{32}/g, 'ARTIFACT'),
  );

const checkPolls = (github: MockUpstream): number => github.requests.filter((r) => r.path.endsWith('/check-runs')).length;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(20)) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

/** The task a raw tools/call of ci_wait created, as a client declaring the extension sends it. */
async function createTask(url: string, token: string | undefined, args: Record<string, unknown> = ARGS): Promise<Record<string, unknown>> {
  const answer = await postJsonRpc(url, { method: 'tools/call', params: { name: 'ci_wait', arguments: args, _meta: envelope() } }, token);
  expect(answer.kind, JSON.stringify(answer)).to.equal('result');
  return (answer as { result: Record<string, unknown> }).result;
}

const taskRequest = (url: string, token: string | undefined, method: string, taskId: string, declare = true) =>
  postJsonRpc(url, { method, params: { taskId, _meta: envelope(declare) } }, token);

describe('ci_wait as an MCP task (tasks extension, 2026-07-28)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let storage: MockUpstream;
  const env = (): Record<string, string> => ({
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_ciWaitToken0123456789abcdef',
    MCP_EGRESS_ALLOW: new URL(storage.url).host,
    CI_WAIT_POLL_MS: '150',
    MCP_TASK_POLL_INTERVAL_MS: '100',
  });

  before(async () => {
    github = await MockUpstream.start();
    storage = await MockUpstream.start();
  });
  after(async () => {
    await github?.close();
    await storage?.close();
  });
  beforeEach(() => {
    github.reset();
    storage.reset();
  });

  describe('over Streamable HTTP, two callers', () => {
    let server: HttpServerProcess;
    let tokens: { dir: string };
    let client: Client;
    let session: TaskEnabledSession;
    before(async () => {
      const folder = tokensFileFolder('mcp-tasks-', [
        { token: ALICE, subject: 'alice' },
        { token: BOB, subject: 'bob' },
      ]);
      tokens = folder;
      server = await startHttpServer({ env: { ...env(), ...folder.env, MCP_TASK_MAX_PER_PRINCIPAL: '2', MCP_AUDIT_LOG: join(folder.dir, 'audit.jsonl') } });
      client = await connectHttp(server.url, ALICE);
      session = taskSession(client, httpDispatch(server.url, ALICE));
    });
    after(async () => {
      await session?.close();
      await client?.close();
      await server?.stop();
      rmSync(tokens.dir, { recursive: true, force: true });
    });

    it('advertises the extension on server/discover', () => {
      expect(client.getServerCapabilities()?.extensions?.[TASKS]).to.deep.equal({});
    });

    it('answers a task at once, says how far CI is while it runs, and ends with the synchronous answer, failure report included', async () => {
      serveFinishingChecks(github, storage);
      const synchronous = (await client.callTool({ name: 'ci_wait', arguments: ARGS })) as CallToolResult;
      github.reset();
      storage.reset();
      serveFinishingChecks(github, storage);

      const execution = await session.callTool('ci_wait', ARGS);
      expect(execution.kind).to.equal('task');
      const messages: string[] = [];
      const { outcome } = await execution.settle({
        onEvent: (event) => {
          if (event.type === 'task' && event.task.statusMessage !== undefined) messages.push(event.task.statusMessage);
        },
      });
      expect(outcome.status).to.equal('completed');
      const result = resultFromTaskOutcome(outcome) as CallToolResult;
      const text = textOf(result as never);
      expect(text.split('\n')[0]).to.equal('CI finished with failures.');
      expect(text).to.contain('## GitHub Actions: test (20.x) (failure)');
      expect(text).to.contain('● cart total › applies the member discount before tax');
      // The same answer (content, error flag, structured value, resource links), but for the log's artifact id.
      expect(comparable(result)).to.deep.equal(comparable(synchronous));
      expect(messages).to.include('1 of 2 checks finished; waiting for test (20.x)');
    });

    it("audits the task's call as a synchronous one: the caller, their request id, the outcome", async () => {
      serveFinishingChecks(github, storage);
      const requestId = 'req-ci-wait-task-0001';
      const created = await postJsonRpc(server.url, { method: 'tools/call', params: { name: 'ci_wait', arguments: ARGS, _meta: envelope() } }, ALICE, {
        'x-request-id': requestId,
      });
      const taskId = (created as { result: { taskId: string } }).result.taskId;
      await until(
        () => auditLines(join(tokens.dir, 'audit.jsonl')).some((line) => (line as { requestId?: string }).requestId === requestId),
        'the audit record',
      );
      const record = auditLines(join(tokens.dir, 'audit.jsonl')).find((line) => (line as { requestId?: string }).requestId === requestId) as unknown as Record<
        string,
        unknown
      >;
      expect(record).to.deep.include({ tool: 'ci_wait', outcome: { status: 'ok' }, client: { name: 'mcp-devtools-tests-tasks', version: '1.0.0' } });
      expect(record.principal).to.deep.include({ subject: 'alice', via: 'tokens' });
      // The audit record is written as the call ends; the task's final state just after it.
      let status: unknown;
      for (const deadline = Date.now() + 5000; status !== 'completed' && Date.now() < deadline; await sleep(50))
        status = ((await taskRequest(server.url, ALICE, 'tasks/get', taskId)) as { result: { status: string } }).result.status;
      expect(status).to.equal('completed');
    });

    it('stops polling CI when the client cancels the task, which then reads cancelled', async () => {
      serveRunningCheck(github);
      const execution = await session.callTool('ci_wait', { ...ARGS, timeoutSeconds: 600 });
      expect(execution.kind).to.equal('task');
      await until(() => checkPolls(github) >= 2, 'two polls');
      await execution.cancel();
      const taskId = execution.handle!.taskId;
      const after = checkPolls(github);
      await sleep(1000);
      expect(checkPolls(github), 'polls after the cancellation').to.be.at.most(after + 1);
      const read = await taskRequest(server.url, ALICE, 'tasks/get', taskId);
      expect(read).to.deep.nested.include({ kind: 'result', 'result.status': 'cancelled', 'result.resultType': 'complete' });
    });

    it("answers another caller's task id as it answers an unknown one, and their cancel leaves it running", async () => {
      serveRunningCheck(github);
      const created = await createTask(server.url, ALICE, { ...ARGS, timeoutSeconds: 600 });
      expect(created).to.include({ resultType: 'task', status: 'working' });
      const taskId = created.taskId as string;
      // 256 random bits, base64url.
      expect(taskId).to.match(/^[A-Za-z0-9_-]{43}$/);
      const unknown = await taskRequest(server.url, BOB, 'tasks/get', 'A'.repeat(43));
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
        const answer = await taskRequest(server.url, BOB, method, taskId);
        expect(answer, method).to.deep.equal(unknown);
      }
      expect(unknown).to.deep.equal({
        kind: 'error',
        error: { code: -32602, message: 'Failed to retrieve task: Task not found (it does not exist, expired, or is not yours).' },
      });
      const mine = await taskRequest(server.url, ALICE, 'tasks/get', taskId);
      expect(mine).to.deep.nested.include({ kind: 'result', 'result.status': 'working' });
      expect(await taskRequest(server.url, ALICE, 'tasks/cancel', taskId)).to.deep.nested.include({ kind: 'result' });
    });

    it('refuses the task methods to a request that does not declare the extension (-32021)', async () => {
      const answer = await taskRequest(server.url, ALICE, 'tasks/get', 'A'.repeat(43), false);
      expect(answer).to.deep.nested.include({ kind: 'error', 'error.code': -32021, 'error.data.requiredCapabilities.extensions': { [TASKS]: {} } });
    });

    it('has no task methods for a 2025-era request (2025-11-25 has tasks/get of its own, not served)', async () => {
      const answer = await postJsonRpc(server.url, { method: 'tasks/get', params: { taskId: 'A'.repeat(43) } }, ALICE, {
        'mcp-protocol-version': '2025-11-25',
      });
      expect(answer).to.deep.nested.include({ kind: 'error', 'error.code': -32601 });
    });

    it('waits synchronously, as before, for a 2026-07-28 request that does not declare the extension', async () => {
      serveFinishingChecks(github, storage);
      const answer = await postJsonRpc(server.url, { method: 'tools/call', params: { name: 'ci_wait', arguments: ARGS, _meta: envelope(false) } }, ALICE);
      expect(answer).to.deep.nested.include({ kind: 'result', 'result.resultType': 'complete' });
      expect(textOf((answer as { result: never }).result).split('\n')[0]).to.equal('CI finished with failures.');
    });

    it('refuses a task past MCP_TASK_MAX_PER_PRINCIPAL with too_many_tasks, for that caller only', async () => {
      serveRunningCheck(github);
      const running = [
        await createTask(server.url, ALICE, { ...ARGS, timeoutSeconds: 600 }),
        await createTask(server.url, ALICE, { ...ARGS, timeoutSeconds: 600 }),
      ];
      const third = await createTask(server.url, ALICE, { ...ARGS, timeoutSeconds: 600 });
      expect(third).to.include({ isError: true });
      expect(textOf(third as never)).to.contain('Code: too_many_tasks');
      const bobs = await createTask(server.url, BOB, { ...ARGS, timeoutSeconds: 600 });
      expect(bobs).to.include({ resultType: 'task' });
      for (const task of running) await taskRequest(server.url, ALICE, 'tasks/cancel', task.taskId as string);
      await taskRequest(server.url, BOB, 'tasks/cancel', bobs.taskId as string);
    });
  });

  describe('two replicas on one Redis', () => {
    let a: HttpServerProcess;
    let b: HttpServerProcess;
    before(async () => {
      const shared = { ...env(), MCP_STORE_URL: await sharedRedisUrl(), MCP_STORE_NAMESPACE: uniqueNamespace('tasks'), MCP_SHUTDOWN_GRACE_MS: '30000' };
      [a, b] = await Promise.all([startHttpServer({ env: shared }), startHttpServer({ env: shared })]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('answers tasks/get on the replica that did not start the task, up to its result', async () => {
      serveFinishingChecks(github, storage);
      const created = await createTask(a.url, undefined);
      const taskId = created.taskId as string;
      let read: Record<string, unknown> = {};
      for (const deadline = Date.now() + 15_000; read.status !== 'completed' && Date.now() < deadline; await sleep(100)) {
        const answer = await taskRequest(b.url, undefined, 'tasks/get', taskId);
        read = (answer as { result: Record<string, unknown> }).result;
      }
      expect(read.status).to.equal('completed');
      expect(textOf((read.result as never) ?? { content: [] }).split('\n')[0]).to.equal('CI finished with failures.');
    });

    it('stops the wait on the replica running it when another replica is asked to cancel it', async () => {
      serveRunningCheck(github);
      const created = await createTask(a.url, undefined, { ...ARGS, timeoutSeconds: 600 });
      const taskId = created.taskId as string;
      await until(() => checkPolls(github) >= 2, 'two polls');
      expect(await taskRequest(b.url, undefined, 'tasks/cancel', taskId)).to.deep.include({ kind: 'result' });
      // Replica A reads the cancellation at its next heartbeat (the poll interval, at least a second).
      let status: unknown;
      for (const deadline = Date.now() + 5000; status !== 'cancelled' && Date.now() < deadline; await sleep(100))
        status = ((await taskRequest(b.url, undefined, 'tasks/get', taskId)) as { result: { status: string } }).result.status;
      expect(status).to.equal('cancelled');
      const after = checkPolls(github);
      await sleep(800);
      expect(checkPolls(github), 'polls after the cancellation').to.be.at.most(after + 1);
    });

    it('fails the running tasks of a replica that shuts down, without waiting out the grace period', async () => {
      serveRunningCheck(github);
      const created = await createTask(a.url, undefined, { ...ARGS, timeoutSeconds: 600 });
      await until(() => checkPolls(github) >= 1, 'a poll');
      const started = Date.now();
      await a.stop();
      expect(Date.now() - started, 'the shutdown took').to.be.below(10_000);
      const read = await taskRequest(b.url, undefined, 'tasks/get', created.taskId as string);
      expect(read).to.deep.nested.include({
        kind: 'result',
        'result.status': 'failed',
        'result.error': { code: -32603, message: 'The server shut down before the task finished; call the tool again.' },
      });
    });
  });

  describe('a replica that dies mid-task', () => {
    it('has its task read failed by the other replica once its heartbeat is 30 s old', async function () {
      this.timeout(90_000);
      const shared = { ...env(), MCP_STORE_URL: await sharedRedisUrl(), MCP_STORE_NAMESPACE: uniqueNamespace('tasks-dead') };
      const [a, b] = await Promise.all([startHttpServer({ env: shared }), startHttpServer({ env: shared })]);
      try {
        serveRunningCheck(github);
        const created = await createTask(a.url, undefined, { ...ARGS, timeoutSeconds: 600 });
        const taskId = created.taskId as string;
        await a.stop('SIGKILL');
        const status = async (): Promise<Record<string, unknown>> =>
          ((await taskRequest(b.url, undefined, 'tasks/get', taskId)) as { result: Record<string, unknown> }).result;
        expect((await status()).status).to.equal('working');
        let read: Record<string, unknown> = {};
        for (const deadline = Date.now() + 45_000; read.status !== 'failed' && Date.now() < deadline; await sleep(1000)) read = await status();
        expect(read).to.deep.include({
          status: 'failed',
          error: { code: -32603, message: 'The server process running this task stopped before it finished; call the tool again.' },
        });
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });
  });

  describe('a short MCP_TASK_TTL_SECONDS', () => {
    it('forgets a task once its TTL has passed', async () => {
      const server = await startHttpServer({ env: { ...env(), MCP_TASK_TTL_SECONDS: '1' } });
      try {
        serveFinishingChecks(github, storage);
        const created = await createTask(server.url, undefined);
        expect(created.ttlMs).to.equal(1000);
        await sleep(1200);
        const answer = await taskRequest(server.url, undefined, 'tasks/get', created.taskId as string);
        expect(answer).to.deep.nested.include({ kind: 'error', 'error.code': -32602 });
      } finally {
        await server.stop();
      }
    });
  });

  describe('over stdio', () => {
    it('runs ci_wait as a task to the same answer, and a 2025-era connection is not offered the extension', async () => {
      const stdio = await connectStdio({ env: env() });
      const session = taskSession(stdio.client, stdioDispatch(stdio.client));
      try {
        serveFinishingChecks(github, storage);
        const execution = await session.callTool('ci_wait', ARGS);
        expect(execution.kind).to.equal('task');
        const { outcome } = await execution.settle();
        expect(outcome.status).to.equal('completed');
        const text = textOf(resultFromTaskOutcome(outcome) as never);
        expect(text.split('\n')[0]).to.equal('CI finished with failures.');
        expect(text).to.contain('● cart total › applies the member discount before tax');
      } finally {
        await session.close();
        await stdio.close();
      }
      const legacy = await connectStdio({ env: env(), versionNegotiation: { mode: 'legacy' } });
      try {
        expect(legacy.client.getServerCapabilities()?.extensions).to.equal(undefined);
      } finally {
        await legacy.close();
      }
    });
  });
});
