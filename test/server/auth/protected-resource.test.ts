import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientCredentialsProvider, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { kitClient } from '../../../server/testing/sdk-client.js';
import { CLIENT, FakeIssuer } from '../../support/fake-issuer.js';
import { startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';
import { runCli } from '../../support/run-cli.js';

const METADATA = '/.well-known/oauth-protected-resource';
const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describe('OAuth protected resource metadata (RFC 9728) and the token audience, over dist/cli.js', function () {
  this.timeout(60_000);
  let idp: FakeIssuer;

  before(async () => {
    idp = await FakeIssuer.start();
  });
  after(async () => {
    await idp.close();
  });

  const oidcEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
    MCP_AUTH_MODE: 'oidc',
    MCP_OIDC_ISSUER: idp.issuer,
    MCP_EGRESS_ALLOW: new URL(idp.issuer).host,
    MCP_HTTP_HOST: '127.0.0.1',
    ...extra,
  });
  const post = (url: string, token?: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(listTools),
    });

  describe('served at its listening address (no MCP_PUBLIC_URL)', () => {
    let server: HttpServerProcess;
    let origin: string;

    before(async () => {
      server = await startHttpServer({ env: oidcEnv({ MCP_OIDC_SCOPES: 'mcp:tools, mcp:read' }) });
      origin = new URL(server.url).origin;
    });
    after(async () => {
      await server.stop();
    });

    it('publishes the metadata at the well-known path for /mcp and at the root, naming the resource and the issuer', async () => {
      for (const path of [`${METADATA}/mcp`, METADATA]) {
        const response = await fetch(`${origin}${path}`);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('application/json');
        expect(await response.json()).to.deep.equal({
          resource: server.url,
          authorization_servers: [idp.issuer],
          bearer_methods_supported: ['header'],
          scopes_supported: ['mcp:tools', 'mcp:read'],
          resource_name: 'mcp-devtools',
        });
      }
      expect((await fetch(`${origin}${METADATA}/mcp`, { method: 'POST' })).status).to.equal(405);
    });

    it('points every 401 at the metadata, with or without a token', async () => {
      const pointer = `resource_metadata="${origin}${METADATA}/mcp"`;
      const missing = await post(server.url);
      expect(missing.status).to.equal(401);
      expect(missing.headers.get('www-authenticate')).to.equal(`Bearer realm="mcp-devtools", ${pointer}`);
      const invalid = await post(server.url, 'not-a-jwt');
      expect(invalid.status).to.equal(401);
      expect(invalid.headers.get('www-authenticate')).to.match(
        new RegExp(`^Bearer realm="mcp-devtools", ${pointer.replace(/[.?/]/g, '\\$&')}, error="invalid_token", error_description=".+"$`),
      );
    });

    it('accepts tokens issued for this resource and refuses tokens issued for another', async () => {
      expect((await post(server.url, await idp.sign({ sub: 'alice' }, { audience: server.url }))).status).to.equal(200);
      const other = await post(server.url, await idp.sign({ sub: 'alice' }, { audience: 'https://another-server.example/mcp' }));
      expect(other.status).to.equal(401);
      expect(await other.text()).to.contain('aud');
    });

    it('lets a real MCP client follow the metadata to the issuer, get a token for this resource, and call a tool', async () => {
      const authProvider = new ClientCredentialsProvider({ clientId: CLIENT.id, clientSecret: CLIENT.secret, expectedIssuer: idp.issuer });
      const client = kitClient('oauth-client');
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider }));
      try {
        const result = (await client.callTool({ name: 'github_get', arguments: { path: '/repos/acme/app' } })) as CallToolResult;
        expect(result.isError, 'the call ran (its upstream is not configured)').to.equal(true);
        expect(idp.tokenRequests.at(-1)?.get('resource')).to.equal(server.url);
      } finally {
        await client.close();
      }
    });
  });

  describe('behind a proxy (MCP_PUBLIC_URL)', () => {
    const PUBLIC = 'https://mcp.example.com/tools/mcp';
    let server: HttpServerProcess;
    let origin: string;

    before(async () => {
      server = await startHttpServer({ env: oidcEnv({ MCP_PUBLIC_URL: `${PUBLIC}/` }) });
      origin = new URL(server.url).origin;
    });
    after(async () => {
      await server.stop();
    });

    it('names the public URL as the resource, at the paths a proxy forwards', async () => {
      for (const path of [`${METADATA}/tools/mcp`, `${METADATA}/mcp`, METADATA]) {
        const metadata = (await (await fetch(`${origin}${path}`)).json()) as { resource: string; scopes_supported?: string[] };
        expect(metadata.resource, path).to.equal(PUBLIC);
        expect(metadata).not.to.have.property('scopes_supported');
      }
      const refused = await post(server.url);
      expect(refused.headers.get('www-authenticate')).to.equal(`Bearer realm="mcp-devtools", resource_metadata="https://mcp.example.com${METADATA}/tools/mcp"`);
    });

    it('accepts tokens for the public URL only', async () => {
      expect((await post(server.url, await idp.sign({ sub: 'alice' }, { audience: PUBLIC }))).status).to.equal(200);
      expect((await post(server.url, await idp.sign({ sub: 'alice' }, { audience: server.url }))).status).to.equal(401);
    });
  });

  it('publishes no metadata with bearer tokens from a file, whose 401 names none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-prm-'));
    writeFileSync(join(dir, 'tokens.yaml'), 'tokens: []\n');
    const tokens = await startHttpServer({ env: { MCP_AUTH_MODE: 'tokens', MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml') } });
    try {
      expect((await fetch(`${new URL(tokens.url).origin}${METADATA}`)).status).to.equal(404);
      expect((await post(tokens.url)).headers.get('www-authenticate')).to.equal('Bearer realm="mcp-devtools"');
    } finally {
      await tokens.stop();
    }
  });

  it('warns when it listens on every address with no MCP_PUBLIC_URL: the metadata cannot name a usable resource', async () => {
    const server = await startHttpServer({ env: oidcEnv({ MCP_HTTP_HOST: '0.0.0.0' }) });
    try {
      const metadata = (await (await fetch(`http://127.0.0.1:${new URL(server.url).port}${METADATA}`)).json()) as { resource: string };
      expect(metadata.resource).to.equal(server.url);
      expect(server.stderr.some((line) => line.includes('MCP_PUBLIC_URL is not set and the server listens on all addresses'))).to.equal(true);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start with an MCP_PUBLIC_URL that cannot name a resource', async () => {
    const result = await runCli(['--transport', 'http', '--port', '0'], { env: oidcEnv({ MCP_PUBLIC_URL: 'https://mcp.example.com/mcp?tenant=a' }) });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain('MCP_PUBLIC_URL=https://mcp.example.com/mcp?tenant=a must not have a query or a fragment');
  });
});
