// DNS rebinding: a page on attacker.example whose name is made to resolve to 127.0.0.1 reaches a loopback server
// as its own origin; the `Host` its browser sends is the one trace of it. /metrics and /healthz (like /mcp, which
// refuses a foreign Origin) answer only under the server's own names. Through the built server (dist/cli.js).
import { expect } from 'chai';
import { onFreshConnection, type RawAnswer } from '../../support/fresh-connection.js';
import { freePort } from '../../support/free-port.js';
import { connectStdio, startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';

const FOREIGN = ['attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', 'attacker.example.'];

function get(url: string, host: string): Promise<RawAnswer> {
  return onFreshConnection(url, { headers: { host } });
}

/** A refusal that leaks nothing of what the route serves, and says what to change. */
function expectRefused(answer: RawAnswer, host: string): void {
  expect(answer.status, `${host}: ${answer.text}`).to.equal(421);
  expect(answer.text).not.to.include('status').and.not.to.include('mcp_devtools').and.not.to.include('process_');
  expect(answer.text).to.include('MCP_HTTP_ALLOWED_HOSTS');
}

describe('Host check of /metrics and /healthz (DNS rebinding)', function () {
  this.timeout(60_000);

  describe('on a loopback HTTP server', () => {
    let server: HttpServerProcess;
    let port: string;
    const at = (path: string): string => server.url.replace(/\/mcp$/, path);

    before(async () => {
      server = await startHttpServer({ env: { MCP_HTTP_ALLOWED_HOSTS: 'metrics.internal', MCP_PUBLIC_URL: 'https://mcp.acme.example/mcp' } });
      port = new URL(server.url).port;
    });
    after(async () => server?.stop());

    for (const name of FOREIGN) {
      it(`refuses Host ${name} with 421 and no body of the route`, async () => {
        expectRefused(await get(at('/healthz'), `${name}:${port}`), name);
        expectRefused(await get(at('/metrics'), `${name}:${port}`), name);
      });
    }

    it("answers under the server's own names: loopback addresses, localhost, the public URL's host, an allowed host", async () => {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'mcp.acme.example', `metrics.internal:${port}`]) {
        const health = await get(at('/healthz'), host);
        expect(health.status, host).to.equal(200);
        expect(health.text).to.equal('{"status":"ok"}');
        const metrics = await get(at('/metrics'), host);
        expect(metrics.status, host).to.equal(200);
        expect(metrics.text).to.include('mcp_devtools_build_info');
      }
    });
  });

  it('refuses a foreign Host on MCP_METRICS_PORT too, and answers the right one', async () => {
    const port = await freePort();
    const session = await connectStdio({ env: { MCP_METRICS_PORT: String(port) } });
    try {
      await session.waitForStderr(`metrics at http://127.0.0.1:${port}/metrics`);
      expectRefused(await get(`http://127.0.0.1:${port}/metrics`, `attacker.example:${port}`), 'attacker.example');
      const right = await get(`http://127.0.0.1:${port}/metrics`, `127.0.0.1:${port}`);
      expect(right.status).to.equal(200);
      expect(right.text).to.include('mcp_devtools_build_info');
    } finally {
      await session.close();
    }
  });
});
