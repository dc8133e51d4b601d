// A redirect from https to plain http on the very same host and port is another origin: the credential is never
// sent over it, and a URL an upstream hands out is not fetched over http when the vendor is https (issue 42).
// The built CLI (dist/cli.js) against one port that speaks both, trusting a throwaway CA (NODE_EXTRA_CA_CERTS).
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { canary } from '../support/canaries.js';
import { runCli } from '../support/run-cli.js';
import { makeTlsFiles, opensslAvailable, type TlsFiles } from '../support/tls-files.js';

interface Seen {
  scheme: 'https' | 'http';
  path: string;
  authorization?: string;
}

/**
 * One port for both schemes, as some hosts serve: each connection is told apart by its first byte (0x16 opens a
 * TLS handshake) and relayed, that byte included, to an https or a plain http server behind it.
 */
async function dualProtocolServer(tls: TlsFiles, handler: (scheme: Seen['scheme']) => RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const backends = {
    https: createHttpsServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, handler('https')),
    http: createHttpServer(handler('http')),
  };
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const front: Server = createNetServer((client) => {
    track(client);
    client.once('data', (first: Buffer) => {
      const backend = backends[first[0] === 0x16 ? 'https' : 'http'];
      const relay = connect((backend.address() as AddressInfo).port, '127.0.0.1', () => {
        relay.write(first);
        client.pipe(relay).pipe(client);
      });
      track(relay);
      relay.once('error', () => client.destroy());
      client.once('error', () => relay.destroy());
    });
  });
  for (const server of [backends.https, backends.http, front]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (front.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      for (const server of [front, backends.https, backends.http]) await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a redirect from https to http on the same host (dist/cli.js)', function () {
  this.timeout(60_000);
  const token = canary('ghp_');
  const seen: Seen[] = [];
  let tls: TlsFiles;
  let server: { port: number; close(): Promise<void> } | undefined;

  before(async function () {
    if (!opensslAvailable()) this.skip();
    tls = makeTlsFiles();
    server = await dualProtocolServer(tls, (scheme) => (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ scheme, path: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      if (scheme === 'http') return res.writeHead(200, { 'content-type': 'text/plain' }).end('served over plain http\n');
      const downgraded = `http://127.0.0.1:${server!.port}${req.url === '/repos/acme/app/tarball/main' ? '/codeload/acme/app.tar.gz' : '/blob/job.txt'}`;
      res.writeHead(302, { location: downgraded }).end();
    });
  });
  after(async () => server?.close());
  beforeEach(() => void seen.splice(0));

  const call = (tool: string, args: Record<string, unknown>, env: Record<string, string> = {}) =>
    runCli(['call', tool, JSON.stringify(args)], {
      env: {
        GITHUB_API_URL: `https://127.0.0.1:${server!.port}`,
        GITHUB_TOKEN: token,
        NODE_EXTRA_CA_CERTS: tls.caFile,
        MCP_UPSTREAM_RETRIES: '0',
        MCP_TOOLSETS: 'all',
        ...env,
      },
    });

  it('does not follow a read of the API there: the token stays on https', async () => {
    const ran = await call('github_get', { path: '/repos/acme/app/tarball/main' });
    expect(ran.stdout).to.equal(
      `Error: GitHub redirected GET /repos/acme/app/tarball/main to another origin (http://127.0.0.1:${server!.port}); it is not followed, so credentials never leave https://127.0.0.1:${server!.port}.\nCode: upstream_redirect_refused\nHTTP Status: 302\n`,
    );
    expect(seen).to.deep.equal([{ scheme: 'https', path: '/repos/acme/app/tarball/main', authorization: `Bearer ${token}` }]);
  });

  it('does not fetch a job log there over http, even with the host allowed', async () => {
    const ran = await call('github_get_job_logs', { owner: 'acme', repo: 'app', jobId: 7 }, { MCP_EGRESS_ALLOW: '127.0.0.1' });
    expect(ran.stdout).to.equal(
      `Error: GitHub redirected GET /repos/acme/app/actions/jobs/7/logs to another origin (http://127.0.0.1:${server!.port}); it is not followed: its scheme is http, and a URL an upstream hands out is fetched over https only (http only when the vendor is configured with an http base URL).\nCode: egress_refused\nHTTP Status: 302\n`,
    );
    expect(seen.map((s) => s.scheme)).to.deep.equal(['https']);
  });
});
