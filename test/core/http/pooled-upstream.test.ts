import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ToolError } from '../../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../../core/http/upstream-client.js';
import type { RequestGate, ToolContext } from '../../../core/plugin/tool-context.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ciClient } from '../../support/ci-client.js';
import { plainToolContext } from '../../support/tool-context.js';

function client(baseUrl: string, maxBytes = 1024 * 1024): UpstreamClient {
  return ciClient(baseUrl, { auth: () => ({ authorization: 'Bearer pooled-canary-token' }), maxBytes });
}

function toolContext(gate?: RequestGate): ToolContext {
  return plainToolContext(gate ? { gate } : {});
}

const PAGE = { items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `pipeline ${i}`, state: 'created' })) };

describe('upstream client over the pooled undici request', () => {
  let vendor: MockUpstream;

  before(async () => {
    vendor = await MockUpstream.start();
  });
  after(async () => {
    await vendor.close();
  });
  beforeEach(() => vendor.reset());

  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`asks for compressed bodies and decodes a ${encoding} one, as fetch did`, async () => {
      vendor.on('GET', '/api/pipelines', {
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: compress(Buffer.from(JSON.stringify(PAGE))),
      });
      const response = await client(vendor.url).send(toolContext(), { method: 'GET', path: '/api/pipelines' });
      expect(response.body).to.deep.equal(PAGE);
      expect(String(vendor.requests[0]!.headers['accept-encoding'])).to.include(encoding);
    });
  }

  it('decodes a compressed error body too, and names the status with its reason phrase', async () => {
    const body = { message: 'Project not found' };
    vendor.on('GET', '/api/project/x', {
      status: 404,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(JSON.stringify(body))),
    });
    const error = await client(vendor.url)
      .send(toolContext(), { method: 'GET', path: '/api/project/x' })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ToolError);
    expect(error).to.include({ code: 'upstream_http_error', status: 404, upstreamBody: JSON.stringify(body) });
    expect((error as ToolError).message).to.include('CI answered 404 Not Found for GET /api/project/x');
  });

  it('caps the decoded size: a small gzip body that inflates past MCP_MAX_RESPONSE_BYTES is refused', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    vendor.on('GET', '/api/bomb', { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb });
    const error = await client(vendor.url, 1024 * 1024)
      .send(toolContext(), { method: 'GET', path: '/api/bomb' })
      .catch((e: unknown) => e);
    expect(bomb.length).to.be.below(1024 * 1024);
    expect(error).to.have.property('code', 'upstream_too_large');
  });

  it('follows a same-origin redirect of a read only after the policy decides on the new path again', async () => {
    vendor.on('GET', '/api/old', { status: 301, headers: { location: '/api/new?page=2' } });
    vendor.on('GET', '/api/new', { body: PAGE });
    const decided: Array<{ method: string; path: string }> = [];
    const response = await client(vendor.url).send(
      toolContext((request) => void decided.push({ method: request.method, path: request.path })),
      { method: 'GET', path: '/api/old' },
    );
    expect(response.body).to.deep.equal(PAGE);
    expect(decided).to.deep.equal([{ method: 'GET', path: '/api/new?page=2' }]);
    expect(vendor.requests[1]!.headers.authorization).to.equal('Bearer pooled-canary-token');
  });

  it('does not follow a redirect the policy refuses, and sends nothing to the new path', async () => {
    vendor.on('GET', '/api/old', { status: 302, headers: { location: '/api/admin' } });
    const refuse = (): void => {
      throw new ToolError('policy_denied', 'GET /api/admin is not allowed');
    };
    const error = await client(vendor.url)
      .send(toolContext(refuse), { method: 'GET', path: '/api/old' })
      .catch((e: unknown) => e);
    expect(error).to.have.property('code', 'policy_denied');
    expect(vendor.requests.map((r) => r.path)).to.deep.equal(['/api/old']);
  });

  it('reports a refused connection with its code and what it means', async () => {
    const closed = await MockUpstream.start();
    const url = closed.url;
    await closed.close();
    const error = await client(url)
      .send(toolContext(), { method: 'GET', path: '/api/me' })
      .catch((e: unknown) => e);
    expect(error).to.have.property('code', 'upstream_unreachable');
    expect((error as Error).message).to.include('(ECONNREFUSED): nothing accepts connections at that address');
  });
});

describe('upstream client keeps connections alive between calls', () => {
  let server: Server;
  let connections = 0;
  let url: string;

  before(async () => {
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(PAGE));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends twenty calls in a row over the same one or two connections, not one each', async () => {
    const ci = client(url);
    for (let i = 0; i < 20; i++) expect((await ci.send(toolContext(), { method: 'GET', path: `/api/pipelines/${i}` })).body).to.deep.equal(PAGE);
    expect(connections).to.be.within(1, 2);
  });

  // The profile of a warm 2 KB call: a new connection and a socket error for every call, because the vendor
  // (the test kit's MockUpstream, like many a proxy) says "Keep-Alive: timeout=1" and undici by default gives up
  // a connection 2 s before the vendor's hint, which left no time to reuse it at all.
  it('reuses connections when the vendor says it closes idle ones after one second', async () => {
    const hinting = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(PAGE));
    });
    hinting.keepAliveTimeout = 1000;
    let opened = 0;
    hinting.on('connection', () => opened++);
    await new Promise<void>((resolve) => hinting.listen(0, '127.0.0.1', resolve));
    try {
      const ci = client(`http://127.0.0.1:${(hinting.address() as AddressInfo).port}`);
      for (let i = 0; i < 20; i++) expect((await ci.send(toolContext(), { method: 'GET', path: `/api/pipelines/${i}` })).body).to.deep.equal(PAGE);
      expect(opened).to.be.within(1, 2);
    } finally {
      hinting.closeAllConnections();
      await new Promise((resolve) => hinting.close(resolve));
    }
  });
});
