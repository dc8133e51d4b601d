// notifications/progress from the built server, as the official SDK client's `onprogress` sees them: over stdio
// and over Streamable HTTP (the notifications on the request's own SSE stream), for a client of each era.
import type { Client, Progress } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import type { VersionNegotiation } from '../../server/testing/sdk-client.js';
import { jobLog } from '../fixtures/github/github-api.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const LOGS = '/repos/octo-org/octo-repo/actions/jobs/399444496/logs';
const ARGS = { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 };
const READING = 'reading the log of job 399444496 of octo-org/octo-repo';
const SAVING = 'saving the whole log as an artifact';
const ERAS: ReadonlyArray<[string, VersionNegotiation]> = [
  ['2026-07-28', { mode: 'auto' }],
  ['2025-11-25', { mode: 'legacy' }],
];

/** Calls github_get_job_logs with `onprogress`; what arrived, and the result's text. */
async function callWithProgress(client: Client): Promise<{ seen: Progress[]; text: string }> {
  const seen: Progress[] = [];
  const result = await client.callTool({ name: 'github_get_job_logs', arguments: ARGS }, { onprogress: (p) => seen.push(p) });
  expect(result.isError, JSON.stringify(result.content)).to.equal(undefined);
  return { seen, text: (result.content[0] as { text: string }).text };
}

/** What every transport and era must show: bytes read of the Content-Length, then bytes saved, always growing. */
function expectLogProgress(seen: Progress[], logBytes: number, text: string): void {
  expect(seen.length, JSON.stringify(seen)).to.be.at.least(3);
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress, JSON.stringify(seen)).to.be.greaterThan(seen[i - 1]!.progress);
  expect(seen[0]).to.include({ total: logBytes, message: READING });
  expect(seen.find((p) => p.message === READING && p.progress === logBytes)).to.deep.include({ total: logBytes });
  const saved = Number(/\((\d+) bytes, text\/plain\)/.exec(text)![1]);
  expect(seen.at(-1)).to.deep.include({ progress: logBytes + saved, total: logBytes + saved, message: SAVING });
}

describe('notifications/progress during a long call (dist/cli.js, the SDK client with onprogress)', function () {
  this.timeout(60_000);
  const log = Buffer.from(jobLog(6000), 'utf8');
  let github: MockUpstream;
  const env = (): Record<string, string> => ({ GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_e2eProgressToken0123456789' });

  before(async () => {
    github = await MockUpstream.start();
    // A log that takes its time: twelve pieces, 40 ms apart, of a declared length.
    github.on('GET', LOGS, { headers: { 'content-type': 'text/plain', 'content-length': String(log.length) }, body: log, dripMs: 40, dripChunks: 12 });
  });
  after(async () => {
    await github?.close();
  });

  for (const [era, versionNegotiation] of ERAS) {
    it(`over stdio, ${era}: bytes read as they arrive, then bytes saved`, async () => {
      const session = await connectStdio({ env: env(), versionNegotiation });
      try {
        expect(session.client.getNegotiatedProtocolVersion()).to.equal(era);
        const { seen, text } = await callWithProgress(session.client);
        expectLogProgress(seen, log.length, text);
      } finally {
        await session.close();
      }
    });
  }

  describe('over Streamable HTTP', () => {
    let server: HttpServerProcess;
    before(async () => {
      server = await startHttpServer({ env: env() });
    });
    after(async () => {
      await server?.stop();
    });

    for (const [era, versionNegotiation] of ERAS) {
      it(`${era}: the notifications come on the request's stream, before its result`, async () => {
        const client = await connectHttp(server.url, undefined, versionNegotiation);
        try {
          expect(client.getNegotiatedProtocolVersion()).to.equal(era);
          const { seen, text } = await callWithProgress(client);
          expectLogProgress(seen, log.length, text);
        } finally {
          await client.close();
        }
      });
    }

    it('answers a 2025-era call that asked for no progress with plain JSON, as before', async () => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'github_get_job_logs', arguments: ARGS } }),
      });
      expect(response.headers.get('content-type')).to.contain('application/json');
      const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
      expect(body.result.content[0]!.text).to.contain('Log of job 399444496');
    });
  });
});
