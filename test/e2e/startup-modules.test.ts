// What a server loads to answer its first tools/list: the start-up chunk and nothing that only some servers or
// some calls need. The other chunks of dist/ (the commands, the HTTP transport and its authenticators, the
// console, Prometheus, JMESPath, the plugin package resolver, the linked accounts' vault), the packages required
// on first use (Ajv, the YAML parser, GraphQL's parser, keyv's store adapters) and node:crypto stay unloaded until
// something asks for them.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';
import { connectStdioAs, type ClientKind, type Connected } from '../support/sdk-client.js';

const PRELOAD = join(REPO_ROOT, 'test/support/module-log.cjs');
const CHUNKS = join(BUNDLE_DIR, 'chunks');

/** The chunks a start-up needs: the prelude (compile cache, runtime notice), the polyfill's and the start-up chunk. */
const isStartupChunk = (file: string): boolean => /^(prelude|startup|reflect-metadata)-[\w-]+\.js$/.test(file);
/**
 * Packages required on first use, never at start-up. keyv is bundled into the start-up chunk; the installed copy
 * is loaded only by the Redis adapter.
 */
const LOADED_ON_FIRST_USE = [
  'keyv',
  '@keyv/serialize',
  'undici',
  'ajv',
  'ajv-formats',
  'graphql',
  'yaml',
  '@keyv/redis',
  '@keyv/sqlite',
  'better-sqlite3',
  'jose',
  'hono',
  'prom-client',
];

interface Started {
  server: Connected;
  /** Every module the server has loaded so far, as its path or URL (built-ins as node:name). */
  loaded(): string[];
}

async function start(kind: ClientKind, env: Record<string, string> = {}): Promise<Started> {
  const log = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-modules-')), 'modules.log');
  const server = await connectStdioAs(kind, { env: { ...env, MODULE_LOG: log, NODE_OPTIONS: `--require ${PRELOAD}` } });
  return { server, loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const lazyChunksIn = (loaded: string[]): string[] =>
  readdirSync(CHUNKS)
    .filter((file) => file.endsWith('.js') && !isStartupChunk(file))
    .filter((file) => loaded.some((module) => module.endsWith(`/dist/chunks/${file}`)));

/**
 * The upstream client's pooled request and the egress guard's connector it dials through (a chunk of its own since
 * the OIDC and OTLP fetches share it): loaded with the first call that reaches a vendor.
 */
const isUpstreamChunk = (file: string): boolean => file.startsWith('pooled-request-') || file.startsWith('egress-connector-');
const callChunksIn = (loaded: string[]): string[] => lazyChunksIn(loaded).filter((file) => !isUpstreamChunk(file));

const firstUsePackagesIn = (loaded: string[]): string[] =>
  LOADED_ON_FIRST_USE.filter((name) => loaded.some((module) => module.includes(`/node_modules/${name}/`)));

describe('what a server loads to answer its first tools/list (dist/cli.js over stdio)', () => {
  for (const kind of ['sdk1', 'v2-auto'] as const) {
    it(`loads the start-up chunk and no chunk or package that only later calls need (${kind} client)`, async () => {
      const started = await start(kind);
      try {
        const { tools } = await started.server.client.listTools();
        expect(tools.length).to.be.greaterThan(30);
        const loaded = started.loaded();
        // The log sees both kinds of module: the bundle's ES chunks and the CommonJS polyfill.
        expect(loaded.some((module) => /\/dist\/chunks\/startup-[\w-]+\.js$/.test(module))).to.equal(true);
        expect(loaded.some((module) => module.includes('/node_modules/reflect-metadata/'))).to.equal(true);
        expect(lazyChunksIn(loaded)).to.deep.equal([]);
        expect(firstUsePackagesIn(loaded)).to.deep.equal([]);
        const laterBuiltins = ['node:http', 'node:https', 'node:http2', 'node:cluster', 'node:crypto'];
        expect(loaded.filter((module) => laterBuiltins.includes(module))).to.deep.equal([]);
      } finally {
        await started.server.close();
      }
    });
  }

  it('loads JMESPath with the first call that asks for a jq, not before', async () => {
    const circleci = await MockUpstream.start();
    circleci.on('GET', '/api/v2/me', { body: { id: 'u-1', login: 'octo', name: 'Octo' } });
    const started = await start('v2-auto', { CIRCLECI_BASE_URL: circleci.url, CIRCLECI_TOKEN: 'circleci-token' });
    try {
      await started.server.client.callTool({ name: 'circleci_get', arguments: { path: '/me' } });
      expect(lazyChunksIn(started.loaded()).filter(isUpstreamChunk)).to.have.length(2);
      expect(callChunksIn(started.loaded())).to.deep.equal([]);
      const result = await started.server.client.callTool({ name: 'circleci_get', arguments: { path: '/me', jq: 'login', outputFormat: 'json' } });
      expect(result.isError ?? false).to.equal(false);
      expect(callChunksIn(started.loaded())).to.satisfy((chunks: string[]) => chunks.length === 1 && chunks[0]!.startsWith('apply-jq-'));
    } finally {
      await started.server.close();
      await circleci.close();
    }
  });
});
