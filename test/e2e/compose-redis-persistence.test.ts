// compose.yaml's Redis loses nothing on a restart: a real redis-server from deploy/compose/redis.conf (the same
// file, adapted only for this machine's port, loopback and data folder) and compose's own command line, a server
// with the deployment's policy holding a call for approval in it, then Redis killed and started again on its
// data folder. The approval is still pending, and granting it lets the caller's retry run. The Kubernetes
// example's Redis reads the same file (test/public/deployment-hardening.test.ts holds its ConfigMap to it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { canary } from '../support/canaries.js';
import { grantThroughServer } from '../support/decision-server.js';
import { redisAnswer, startComposeRedis, type ComposeRedis } from '../support/compose-redis.js';
import { decisionIn } from '../support/grant-races.js';
import { REPO_ROOT } from '../support/paths.js';
import { REDIS_BINARY_MISSING, redisServerAvailable, uniqueNamespace } from '../support/redis.js';
import { runCli } from '../support/run-cli.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';

const ISSUE = { owner: 'acme', repo: 'api', title: 'Flaky deploy step', body: 'The deploy step times out once a day.' };

describe("compose.yaml's Redis keeps a pending approval across a restart (deploy/compose/redis.conf)", function () {
  this.timeout(120_000);
  const password = canary('redis-');
  let redis: ComposeRedis;
  let upstream: MockUpstream;
  let session: StdioSession;
  let env: Record<string, string>;

  before(async function () {
    if (!redisServerAvailable()) throw new Error(REDIS_BINARY_MISSING);
    redis = await startComposeRedis(password);
    upstream = await MockUpstream.start();
    upstream.on('POST', '/repos/acme/api/issues', { status: 201, body: { number: 7, state: 'open', html_url: 'https://github.example/acme/api/issues/7' } });
    env = {
      MCP_STORE_URL: `redis://:${password}@127.0.0.1:${redis.port}/0`,
      MCP_STORE_NAMESPACE: uniqueNamespace('compose-persistence'),
      MCP_POLICY_FILE: join(REPO_ROOT, 'deploy/compose/policy.yaml'),
      MCP_TOOLSETS: 'github.issues',
      GITHUB_API_URL: upstream.url,
      GITHUB_TOKEN: canary('ghp_'),
    };
    session = await connectStdio({ env });
  });
  after(async () => {
    await session?.close();
    await upstream?.close();
    await redis?.stop('SIGKILL');
  });

  const create = async (): Promise<CallToolResult> => (await session.client.callTool({ name: 'github_create_issue', arguments: ISSUE })) as CallToolResult;
  const pending = async (): Promise<string[]> => {
    const listed = await runCli(['approvals', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).to.equal(0);
    return (JSON.parse(listed.stdout) as Array<{ id: string; status: string }>).filter((a) => a.status === 'pending').map((a) => a.id);
  };

  it('holds the call, Redis is killed and started again on its data folder, and the approval is still pending; granted, the retry runs', async () => {
    const held = await create();
    expect(held.isError).to.equal(true);
    const approvalId = decisionIn(held)?.approvalId;
    expect(decisionIn(held)?.effect).to.equal('approval_required');
    expect(approvalId).to.be.a('string');
    expect(await pending()).to.deep.equal([approvalId]);

    // A crash, not a shutdown: nothing is written out on the way down; the append-only file already holds it.
    await redis.stop('SIGKILL');
    await redis.start();
    expect(await redisAnswer(redis.port, 'PING')).to.match(/^-NOAUTH/);

    expect(await pending()).to.deep.equal([approvalId]);
    // The approver decides through the same configuration served over HTTP on the same store, as themselves.
    const granted = await grantThroughServer({ cwd: mkdtempSync(join(tmpdir(), 'compose-decides-')), env }, approvalId!);
    expect(granted.code, granted.stderr).to.equal(0);
    expect(upstream.requests.filter((r) => r.method === 'POST')).to.have.length(0);
    const retried = await create();
    expect(retried.isError, JSON.stringify(retried.content)).to.not.equal(true);
    expect(upstream.requests.filter((r) => r.method === 'POST')).to.have.length(1);
  });
});
