// Bundles the CLI and the public plugin API into dist/, then the type declarations of the public entry points
// (one .d.ts per entry).
//
// Dependencies are bundled in: Node resolves, reads and links every module file on its own, and that was
// most of the server's start-up (TypeBox alone is some 700 files, the MCP SDK with zod 170 more). Everything
// a server needs to start goes into one chunk; what only some servers use (the HTTP transport and its
// authenticators, JMESPath, the plugin package resolver) into chunks loaded when first needed
// (docs/benchmarks.md has the figures). The start-up chunk's code runs through a V8 code cache
// (rollup/startup-code-cache.mjs). Kept installed and imported: reflect-metadata (one metadata store
// for every copy of the decorators) and keyv's store adapters (native SQLite, the Redis client: loaded only
// when MCP_STORE_URL names them). keyv itself is bundled: imported from node_modules, its ES module cost
// 4-13 ms of every start-up (resolved, read and compiled without the code cache); the Redis adapter's
// createKeyv still imports the installed copy, which needs nothing shared with ours (a store is duck-typed).
// Ajv and the YAML parser are required on first use (createRequire): the MCP SDK's server loads its Ajv as it
// is imported, so its shims module is replaced (sdkServerShims below).
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { builtinModules, createRequire } from 'node:module';
import { resolve as resolvePath } from 'node:path';
import { dts } from 'rollup-plugin-dts';
import { lazyCoreSchemas } from './rollup/lazy-core-schemas.mjs';
import { lazySdkSchemas } from './rollup/lazy-sdk-schemas.mjs';
import { pinoWorkerThreads } from './rollup/pino-worker-threads.mjs';
import { startupCodeCache } from './rollup/startup-code-cache.mjs';

const KEPT_EXTERNAL = ['reflect-metadata', '@keyv/sqlite', '@keyv/redis', 'sqlite3'];

const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id);
const isExternal = (id) => isBare(id) && (id.startsWith('node:') || KEPT_EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)));
/** The declarations name every dependency's types by package; nothing of them is bundled. */
const isExternalType = isBare;

/**
 * Dynamic imports that stay separate chunks, loaded only by a server that uses them: the command-line parser
 * and the commands (a server started with no arguments, as MCP clients start it, serves without them), the
 * HTTP transport and its authenticators, the admin and metrics routes, the approvals console, the Prometheus
 * client, the package resolver for plugins named by package, the JMESPath engine (loaded by the first call
 * with a jq).
 */
const LAZY = [
  /\/server\/cli\/commands\.ts$/,
  /\/server\/transports\/http\.ts$/,
  /\/server\/cli\/http-auth\.ts$/,
  /\/server\/auth\/create-authenticator\.ts$/,
  /\/server\/admin\/approval-routes\.ts$/,
  /\/server\/cli\/http-routes\.ts$/,
  /\/server\/console\/mount\.ts$/,
  // Prometheus metrics (prom-client): only servers that expose them load it (HTTP, or MCP_METRICS_PORT).
  /\/server\/metrics\/prometheus-metrics\.ts$/,
  /\/server\/metrics\/metrics-server\.ts$/,
  /\/node_modules\/import-meta-resolve\//,
  /\/plugins\/projection\/apply-jq\.ts$/,
  // The pooled upstream client (undici): loaded by the first call that reaches a vendor.
  /\/core\/http\/pooled-request\.ts$/,
  // node:cluster workers: only a primary or a worker of MCP_WORKERS > 1 loads them.
  /\/server\/cli\/workers\.ts$/,
];

/**
 * The MCP SDK server's index module: the start-up code imports the low-level Server through it, but its own
 * code is the Streamable HTTP entry (createMcpHandler and its transports), which only the lazy HTTP transport
 * uses. Kept out of the start-up chunk, its code goes with the HTTP transport.
 */
const HTTP_ONLY = [/\/@modelcontextprotocol\/server\/dist\/index\.mjs$/];

/** Every module a server loads to start: the CLI and what it imports, statically or through a plugin loader. */
function startupModules(getModuleInfo) {
  const seen = new Set();
  const stack = [resolvePath('server/cli.ts')];
  while (stack.length > 0) {
    const id = stack.pop();
    const info = seen.has(id) || HTTP_ONLY.some((only) => only.test(id)) ? null : getModuleInfo(id);
    if (!info || info.isExternal) continue;
    seen.add(id);
    stack.push(...info.importedIds, ...info.dynamicallyImportedIds.filter((d) => !LAZY.some((lazy) => lazy.test(d))));
  }
  return seen;
}

const REFLECT_METADATA_LOADER = resolvePath('server/cli/reflect-metadata.ts');

/**
 * One chunk for everything start-up needs (Node reads, resolves and links each file on its own, so a
 * handful of files start faster than sixty), the lazy parts beside it.
 */
function startupChunk() {
  let startup;
  return (id, { getModuleInfo }) => {
    startup ??= startupModules(getModuleInfo);
    // The entry modules stay out: each entry then runs once the whole chunk has been evaluated (the CLI's
    // top-level await would otherwise run before the modules placed after it in the chunk).
    if (getModuleInfo(id)?.isEntry) return undefined;
    if (HTTP_ONLY.some((only) => only.test(id))) return 'sdk-http';
    // The decorator metadata polyfill must run before the start-up chunk's decorators, and the chunk's module
    // order is not the CLI's import order: a chunk of its own, which the CLI imports first.
    if (id === REFLECT_METADATA_LOADER) return 'reflect-metadata';
    return startup.has(id) ? 'startup' : undefined;
  };
}

/**
 * The SDK server's shims module (`@modelcontextprotocol/server/_shims`) imports its default JSON Schema
 * validator, and with it Ajv (some 8,000 lines), as the server is imported. The bundle gives it our own shims
 * instead, whose default validator loads the SDK's Ajv on first use (server/mcp/sdk-shims.ts). The SDK client
 * (the test kit) keeps the real one: it validates every structured result.
 */
const SDK_SERVER_SHIMS = '@modelcontextprotocol/server/_shims';
const sdkServerShims = {
  name: 'sdk-server-shims',
  resolveId: (source) => (source === SDK_SERVER_SHIMS ? resolvePath('server/mcp/sdk-shims.ts') : null),
};

/**
 * Node's built-in modules are required, not imported, by the bundle. Importing a built-in from an ES module
 * makes Node build a module facade that reads every one of its exports, and reading some of them loads more
 * of Node (`crypto` its Web Crypto, for one): about a tenth of the server's start-up. A built-in has no
 * evaluation order to keep, and `require` gives the same exports object. Rollup writes each import on a line of
 * its own at the top of the chunk; each is replaced by one line, so the source map stays as it is.
 */
const isBuiltin = (id) => id.startsWith('node:') || builtinModules.includes(id);
const REQUIRE = '__require';
const requireBuiltins = {
  name: 'require-builtins',
  renderChunk(code) {
    const lines = code.split('\n');
    let first = -1;
    for (let i = lines[0].startsWith('#!') ? 1 : 0; i < lines.length && lines[i].startsWith('import '); i++) {
      const parsed = /^import (?:(?<clause>[^*'][^']*?) from )?'(?<id>[^']+)';$/.exec(lines[i])?.groups;
      if (!parsed || !isBuiltin(parsed.id)) continue;
      lines[i] = requireLine(parsed.clause, parsed.id, i);
      if (first === -1) first = i;
    }
    if (first === -1) return null;
    lines[first] = `import { createRequire as __createRequire } from 'node:module'; const ${REQUIRE} = __createRequire(import.meta.url); ${lines[first]}`;
    return { code: lines.join('\n'), map: null };
  },
};

/**
 * Built-ins that start-up does not use, though modules it loads import them: loading `crypto` loads some twenty
 * modules of Node's (its hashes, ciphers, keys, X.509), `assert` five (pino's file writer imports it for its
 * checks), `worker_threads` pino's transports (unused: the log writer is synchronous, rollup/pino-worker-threads.mjs),
 * a few milliseconds of every start for code the first calls run. Imported functions of these are
 * required on first call instead (`createHash` becomes a function that requires `crypto` and calls its own, a
 * default import that is a function a proxy that does the same); an import of anything else stays eager.
 */
const LAZY_BUILTINS = ['node:crypto', 'crypto', 'node:assert', 'assert', 'node:worker_threads', 'worker_threads'];
const requireNow = createRequire(import.meta.url);

/** `import { a, b as c } from 'id'` as `const a = (...args) => require('id').a(...args), c = ...;`, or null. */
function lazyRequireLine(parts, id) {
  if (!LAZY_BUILTINS.includes(id)) return null;
  const call = `${REQUIRE}(${JSON.stringify(id)})`;
  // The module is kept once required: a call through Node's require costs its path resolution and cache
  // lookup every time (a few microseconds), and undici calls its default import of node:assert for every
  // header of every response. A proxy's traps keep it on their handler (`this` in a trap), a function in the
  // closure it is made in.
  const kept = `(this.module ??= ${call})`;
  if (parts.named === undefined && parts.def !== undefined && typeof requireNow(id) === 'function') {
    return `const ${parts.def} = new Proxy(() => {}, { apply(_, self, args) { return Reflect.apply(${kept}, self, args); }, get(_, key) { return ${kept}[key]; } });`;
  }
  // A default import of a module object (a CommonJS `require` of it, hoisted by the commonjs plugin): a proxy
  // that requires the module when one of its properties is first read or listed.
  if (parts.named === undefined && parts.def !== undefined) {
    const own = `getOwnPropertyDescriptor(_, key) { const own = Reflect.getOwnPropertyDescriptor(${kept}, key); return own && { ...own, configurable: true }; }`;
    return `const ${parts.def} = new Proxy({}, { get(_, key) { return ${kept}[key]; }, has(_, key) { return key in ${kept}; }, ownKeys() { return Reflect.ownKeys(${kept}); }, ${own} });`;
  }
  if (parts.def !== undefined || parts.named === undefined) return null;
  const bindings = parts.named.split(', ').map((binding) => binding.split(' as '));
  if (bindings.some(([name]) => typeof requireNow(id)[name] !== 'function')) return null;
  return `const ${bindings.map(([name, local = name]) => `${local} = ((module) => (...args) => (module ??= ${call}).${name}(...args))()`).join(', ')};`;
}

/** `import def, { a, b as c } from 'id'` as `const def = require('id'), { a, b: c } = def;`. */
function requireLine(clause, id, index) {
  const call = `${REQUIRE}(${JSON.stringify(id)})`;
  if (clause === undefined) return LAZY_BUILTINS.includes(id) ? `const ${REQUIRE}$${index} = () => ${call};` : `${call};`;
  const parts = /^(?<def>[\w$]+)?(?:, )?(?:\{ (?<named>[^}]*) \})?$/.exec(clause)?.groups;
  if (!parts) throw new Error(`require-builtins: cannot read the import of ${id}: ${clause}`);
  const lazy = lazyRequireLine(parts, id);
  if (lazy !== null) return lazy;
  const def = parts.def ?? `${REQUIRE}$${index}`;
  const named = parts.named === undefined ? '' : `, { ${parts.named.replaceAll(' as ', ': ')} } = ${def}`;
  return `const ${def} = ${call}${named};`;
}

/** The public entry points: `mcp-devtools/plugin` and `mcp-devtools/testing` (package.json `exports`). */
const PUBLIC = {
  plugin: 'core/public/plugin.ts',
  testing: 'server/public/testing.ts',
};

export default [
  {
    input: {
      cli: 'server/cli.ts',
      ...PUBLIC,
    },
    external: isExternal,
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: true,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks: startupChunk(),
    },
    plugins: [
      sdkServerShims,
      // The SDK's wire schemas of an era: each built when first used, not all on the era's first request.
      lazySdkSchemas,
      // The SDK's protocol schemas: each built when first read, not all as the SDK is imported.
      lazyCoreSchemas(),
      // pino and its transports' worker: node:worker_threads read when first needed (never, with a synchronous writer).
      pinoWorkerThreads,
      requireBuiltins,
      // After requireBuiltins: it reads the chunk's import lines as requireBuiltins leaves them.
      startupCodeCache('startup'),
      // es2015: tsyringe's modern ESM build (its "module" is ES5).
      nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'], mainFields: ['es2015', 'module', 'main'] }),
      // node:sqlite stays a lazy require: undici checks for it (its cache store, unused here), and as a static
      // import it would fail to link on Node 20, which has no such module.
      commonjs({ ignoreDynamicRequires: true, ignore: ['node:sqlite'] }),
      json(),
      typescript({
        tsconfig: './tsconfig.json',
        include: ['core/**/*.ts', 'plugins/**/*.ts', 'server/**/*.ts'],
        exclude: ['test/**', 'examples/**', 'build/**', 'dist/**'],
        compilerOptions: { outDir: 'dist', rootDir: '.', declaration: false },
        noEmitOnError: true,
      }),
    ],
    onwarn(warning, warn) {
      // Type errors must fail the build, not scroll past as warnings.
      if (warning.plugin === 'typescript') throw new Error(warning.message);
      // Bundled dependencies' own circular imports and comment annotations are theirs, and harmless.
      const inDependency = (warning.ids ?? [warning.id ?? warning.loc?.file ?? '']).every((id) => id.includes('/node_modules/'));
      if (inDependency && ['CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION', 'THIS_IS_UNDEFINED'].includes(warning.code)) return;
      warn(warning);
    },
  },
  {
    input: PUBLIC,
    external: isExternalType,
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].d.ts',
      chunkFileNames: 'chunks/[name]-[hash].d.ts',
    },
    plugins: [dts({ tsconfig: './tsconfig.json' })],
  },
];
