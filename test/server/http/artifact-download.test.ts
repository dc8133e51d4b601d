import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { byteRange } from '../../../server/http/byte-range.js';
import { tokensFileFolder } from '../../support/auth-fixture.js';
import { jobLog } from '../../fixtures/github/github-api.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';

const TOKENS = { alice: 'tok-alice-download-4c1e', bob: 'tok-bob-download-9a7f' };
const LOG = jobLog(3_000).replace(/^\uFEFF/, ''); // about 200 KB: several stored chunks

describe('GET /artifacts/{artifactId} over Streamable HTTP (dist/cli.js, bearer tokens)', () => {
  let github: MockUpstream;
  let server: HttpServerProcess;
  let alice: Client;
  let base: string;
  let artifactId: string;

  before(async () => {
    github = await MockUpstream.start();
    github.on('GET', '/repos/octo-org/octo-repo/actions/jobs/:id/logs', { headers: { 'content-type': 'text/plain' }, body: LOG });
    const { dir, env } = tokensFileFolder('artifact-download-', [
      { token: TOKENS.alice, subject: 'alice' },
      { token: TOKENS.bob, subject: 'bob' },
    ]);
    server = await startHttpServer({ cwd: dir, env: { ...env, GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_downloadTest0123' } });
    base = server.url.replace(/\/mcp$/, '');
    alice = await connectHttp(server.url, TOKENS.alice);
    const result = (await alice.callTool({
      name: 'github_get_job_logs',
      arguments: { owner: 'octo-org', repo: 'octo-repo', jobId: 1, tailLines: 1 },
    })) as CallToolResult;
    artifactId = /artifact ([0-9a-f]{32})/.exec((result.content[0] as { text: string }).text)![1]!;
  });
  after(async () => {
    await alice?.close();
    await server?.stop();
    await github?.close();
  });

  const get = (path: string, token?: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> =>
    fetch(`${base}${path}`, { method, headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } });

  it('gives the owner the whole artifact with its mime type and length', async () => {
    const response = await get(`/artifacts/${artifactId}`, TOKENS.alice);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/plain');
    expect(response.headers.get('content-length')).to.equal(String(Buffer.byteLength(LOG)));
    expect(response.headers.get('accept-ranges')).to.equal('bytes');
    expect(response.headers.get('cache-control')).to.equal('private, no-store');
    expect(await response.text()).to.equal(LOG);
  });

  it('answers a Range with 206 and exactly those bytes, so a download can resume', async () => {
    const bytes = Buffer.from(LOG);
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=24570-24600', 24570, 24600], // across a stored chunk boundary
      [`bytes=${bytes.length - 1000}-`, bytes.length - 1000, bytes.length - 1],
      ['bytes=-500', bytes.length - 500, bytes.length - 1],
    ] as const) {
      const response = await get(`/artifacts/${artifactId}`, TOKENS.alice, { range });
      expect(response.status, range).to.equal(206);
      expect(response.headers.get('content-range'), range).to.equal(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(start, end + 1)), range).to.equal(true);
    }
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await get(`/artifacts/${artifactId}`, TOKENS.alice, { range: `bytes=${Buffer.byteLength(LOG)}-` });
    expect(response.status).to.equal(416);
    expect(response.headers.get('content-range')).to.equal(`bytes */${Buffer.byteLength(LOG)}`);
  });

  it('answers another principal and an unknown id with the same 404', async () => {
    const foreign = await get(`/artifacts/${artifactId}`, TOKENS.bob);
    const unknown = await get(`/artifacts/${'f'.repeat(32)}`, TOKENS.alice);
    const malformed = await get('/artifacts/%E0%A4%A', TOKENS.alice);
    for (const response of [foreign, unknown, malformed]) {
      expect(response.status).to.equal(404);
      expect(await response.json()).to.deep.equal({ error: 'Artifact not found or expired' });
    }
  });

  it('answers 401 with WWW-Authenticate without a token, or with a bad one', async () => {
    for (const token of [undefined, 'tok-guessed']) {
      const response = await get(`/artifacts/${artifactId}`, token);
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools"');
      expect(await response.text()).not.to.contain('npm');
    }
  });

  it('answers HEAD with the headers alone, refuses other methods, and refuses a foreign browser origin', async () => {
    const head = await get(`/artifacts/${artifactId}`, TOKENS.alice, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), await head.text()]).to.deep.equal([200, String(Buffer.byteLength(LOG)), '']);
    const post = await get(`/artifacts/${artifactId}`, TOKENS.alice, {}, 'POST');
    expect([post.status, post.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD']);
    const evil = await get(`/artifacts/${artifactId}`, TOKENS.alice, { origin: 'https://evil.example' });
    expect(evil.status).to.equal(403);
  });

  it('leaves /mcp and /healthz as they were', async () => {
    expect((await get('/healthz')).status).to.equal(200);
    expect((await alice.listTools()).tools.length).to.be.greaterThan(30);
  });
});

describe('byteRange (one Range header against a size)', () => {
  it('reads the three forms, and ignores what it may ignore', () => {
    expect(byteRange('bytes=0-9', 100)).to.deep.equal({ start: 0, end: 9 });
    expect(byteRange('bytes=90-200', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(byteRange('bytes=-1000', 100)).to.deep.equal({ start: 0, end: 99 });
    for (const header of [undefined, 'items=0-9', 'bytes=0-9,20-29', 'bytes=9-0', 'bytes=-', 'nonsense'])
      expect(byteRange(header, 100), String(header)).to.equal(undefined);
    expect(byteRange('bytes=100-', 100)).to.equal('unsatisfiable');
    expect(byteRange('bytes=-0', 100)).to.equal('unsatisfiable');
  });
});
