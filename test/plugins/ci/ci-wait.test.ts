import type { Client as V2Client, Progress } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { checkRun, checkRunsReply, combinedStatusReply, REPO, SHA } from '../../fixtures/ci/ci-fixtures.js';
import { connectStdio, connectStdioAs, type Connected } from '../../support/sdk-client.js';
import { textOf } from '../../support/test-kernel.js';
import { serveActionsFailure } from './ci-mocks.js';

// ci_wait over stdio from the built server: progress as each check finishes, a bounded wait, and cancellation
// that stops the polling, for a client of each generation (the 1.x SDK and the v2 client).

const JOB_ID = 31933201456;

/** A commit whose two checks finish one after the other, one poll apart: lint passes, then the tests fail. */
function serveFinishingChecks(github: MockUpstream, storage: MockUpstream, pollsBeforeDone = 2): void {
  serveActionsFailure(github, storage);
  let polls = 0;
  github.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, () => {
    polls++;
    return checkRunsReply([
      checkRun({ id: 100, name: 'lint', app: 'github-actions', conclusion: polls >= 2 ? 'success' : null }),
      checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: polls >= 2 + pollsBeforeDone ? 'failure' : null, annotations: 2 }),
    ]);
  });
}

const checkPolls = (github: MockUpstream): number => github.requests.filter((r) => r.path.endsWith('/check-runs')).length;

describe('ci_wait (dist/cli.js over stdio)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let storage: MockUpstream;
  const env = (): Record<string, string> => ({
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_ciWaitToken0123456789abcdef',
    MCP_EGRESS_ALLOW: new URL(storage.url).host,
    // Progress is sent at most every 100 ms: polls further apart than that show each check finishing.
    CI_WAIT_POLL_MS: '150',
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

  describe('a client without tasks (@modelcontextprotocol/sdk 1.x): a bounded synchronous wait', () => {
    let session: Connected;
    before(async () => {
      session = await connectStdioAs('sdk1', { env: env() });
    });
    after(async () => {
      await session?.close();
    });
    const sdk1 = (): Sdk1Client => session.client as unknown as Sdk1Client;

    it('reports progress as checks finish, then answers the final status with the failure report', async () => {
      serveFinishingChecks(github, storage);
      const seen: Array<{ progress: number; total?: number; message?: string }> = [];
      const result = await sdk1().callTool({ name: 'ci_wait', arguments: { repo: REPO, ref: SHA, timeoutSeconds: 30 } }, undefined, {
        onprogress: (p) => seen.push(p),
      });
      const text = textOf(result as never);
      expect(text.split('\n')[0]).to.equal('CI finished with failures.');
      expect(text).to.contain('## GitHub Actions: test (20.x) (failure)');
      expect(text).to.contain('● cart total › applies the member discount before tax');
      const checksDone = seen.filter((p) => p.message?.includes('checks finished'));
      expect(checksDone.map((p) => p.progress)).to.deep.equal([0, 1, 2]);
      expect(checksDone[0]).to.deep.include({ total: 2, message: '0 of 2 checks finished; waiting for lint, test (20.x)' });
      expect(checksDone[1]).to.deep.include({ message: '1 of 2 checks finished; waiting for test (20.x)' });
      expect(checksDone[2]).to.deep.include({ message: 'all 2 checks finished' });
    });

    it('answers "still running" when the wait ends first, and says how to keep waiting', async () => {
      github.on(
        'GET',
        `/repos/${REPO}/commits/:ref/check-runs`,
        checkRunsReply([checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: null })]),
      );
      github.on('GET', `/repos/${REPO}/commits/:ref/status`, combinedStatusReply([]));
      const result = await sdk1().callTool({ name: 'ci_wait', arguments: { repo: REPO, ref: SHA, timeoutSeconds: 1 } });
      const text = textOf(result as never);
      expect(text).to.match(
        /^Still running after 1 s: call ci_wait again to keep waiting\.\nNo failed checks on acme\/storefront at 7d9c1e2a4b6f .*\nStill running: test \(20\.x\)\./,
      );
      // The interval doubles while nothing changes: a second at 150 ms would be seven polls without it.
      expect(checkPolls(github)).to.be.within(2, 5);
    });

    it('stops polling when the client cancels the call', async () => {
      github.on(
        'GET',
        `/repos/${REPO}/commits/:ref/check-runs`,
        checkRunsReply([checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: null })]),
      );
      github.on('GET', `/repos/${REPO}/commits/:ref/status`, combinedStatusReply([]));
      const controller = new AbortController();
      const call = sdk1().callTool({ name: 'ci_wait', arguments: { repo: REPO, ref: SHA, timeoutSeconds: 600 } }, undefined, { signal: controller.signal });
      while (checkPolls(github) < 2) await new Promise((r) => setTimeout(r, 20));
      controller.abort('the user stopped waiting');
      await call.then(
        () => expect.fail('a cancelled call has no result'),
        (error: Error) => expect(String(error)).to.contain('the user stopped waiting'),
      );
      const after = checkPolls(github);
      await new Promise((r) => setTimeout(r, 1500));
      expect(checkPolls(github), 'polls after the cancellation').to.be.at.most(after + 1);
    });
  });

  describe('the v2 client negotiating 2026-07-28', () => {
    it('gets the same progress and answer', async () => {
      const session = await connectStdio({ env: env() });
      try {
        const client: V2Client = session.client;
        serveFinishingChecks(github, storage);
        const seen: Progress[] = [];
        const result = await client.callTool({ name: 'ci_wait', arguments: { repo: REPO, ref: SHA, timeoutSeconds: 30 } }, { onprogress: (p) => seen.push(p) });
        expect(textOf(result as never).split('\n')[0]).to.equal('CI finished with failures.');
        expect(seen.filter((p) => p.message?.includes('checks finished')).map((p) => p.progress)).to.deep.equal([0, 1, 2]);
      } finally {
        await session.close();
      }
    });
  });
});
