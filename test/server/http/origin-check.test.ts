import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { isLoopbackHost, originAllowed } from '../../../server/http/origin-check.js';
import { fixtureConfig } from '../../support/fixture-plugin.js';
import { startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';

describe('origin and loopback checks parse addresses (server/http/origin-check.ts)', () => {
  it('takes localhost, 127.0.0.0/8 and ::1 in their forms as loopback, and names that only start like them as not', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:7f00:1]'])
      expect(isLoopbackHost(host), host).to.equal(true);
    for (const host of [
      '127.evil.example',
      '127.0.0.1.nip.io',
      'localhost.evil.example',
      'evil-localhost',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '::2',
      '10.0.0.1',
      '',
    ])
      expect(isLoopbackHost(host), host).to.equal(false);
  });

  it('allows loopback origins, and refuses origins that only look like them (the prefix mutation)', () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://127.5.5.5', 'http://[::1]:3000', 'https://localhost'])
      expect(originAllowed(origin, []), origin).to.equal(true);
    for (const origin of [
      'http://localhost.evil.example',
      'http://127.0.0.1.nip.io',
      'https://evil.example',
      'null',
      'file:///tmp/x.html',
      'chrome-extension://localhost',
    ])
      expect(originAllowed(origin, []), origin).to.equal(false);
  });

  it('allows configured origins, compared as origins, and no others', () => {
    const allowed = ['https://console.acme.example', 'http://ops.acme.example:8443/'];
    for (const origin of ['https://console.acme.example', 'http://ops.acme.example:8443']) expect(originAllowed(origin, allowed), origin).to.equal(true);
    for (const origin of [
      'https://console.acme.example.evil.example',
      'http://console.acme.example',
      'https://console.acme.example:444',
      'http://ops.acme.example',
    ])
      expect(originAllowed(origin, allowed), origin).to.equal(false);
    expect(originAllowed('https://anything.example', ['*'])).to.equal(true);
    expect(originAllowed(undefined, [])).to.equal(true);
  });
});

describe('MCP_HTTP_ALLOWED_ORIGINS, end to end (dist/cli.js --transport http)', function () {
  this.timeout(30_000);
  let server: HttpServerProcess;
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const post = (origin: string): Promise<Response> =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
      body: initialize,
    });

  before(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'origins-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), fixtureConfig().content);
    server = await startHttpServer({ cwd, env: { MCP_HTTP_ALLOWED_ORIGINS: 'https://console.acme.example, https://ops.acme.example' } });
  });
  after(() => server?.stop());

  it('answers the configured origins and loopback ones, and refuses look-alikes with 403', async () => {
    for (const origin of ['https://console.acme.example', 'https://ops.acme.example', 'http://localhost:5173'])
      expect((await post(origin)).status, origin).to.equal(200);
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'https://console.acme.example.evil.example', 'http://127.0.0.1.nip.io']) {
      const response = await post(origin);
      expect(response.status, origin).to.equal(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).to.equal(
        `Origin ${origin} is not allowed; add it to MCP_HTTP_ALLOWED_ORIGINS.`,
      );
    }
  });
});
