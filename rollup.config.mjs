// Bundles the CLI and the public plugin API into dist/, then the type declarations of the public entry points
// (one .d.ts per entry).
//
// Ordinary bundling only: dependencies are bundled in (CommonJS converted, tree-shaken), so Node resolves and
// reads a handful of files at start-up instead of some nine hundred (TypeBox alone is about 700, the MCP SDK with
// zod 170 more). Everything a server needs to start goes into one chunk; what only some servers use (the HTTP
// transport and its authenticators, JMESPath, the plugin package resolver) into chunks loaded when first needed.
// No dependency's code is rewritten. Kept installed and imported: reflect-metadata (one metadata store for every
// copy of the decorators) and keyv's store adapters (native SQLite, the Redis client: loaded only when
// MCP_STORE_URL names them), and code mode's TypeScript compiler and QuickJS engine (loaded by the first program;
// QuickJS reads its WebAssembly file beside its module).
// Required from the installed packages by their first use, so neither bundled nor loaded to start: Ajv, the YAML
// parser, the Markdown converters and GraphQL's parser (core/http/graphql-library.ts).
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { resolve as resolvePath } from 'node:path';
import { dts } from 'rollup-plugin-dts';

const KEPT_EXTERNAL = [
  'reflect-metadata',
  '@keyv/sqlite',
  '@keyv/redis',
  'sqlite3',
  'typescript',
  'quickjs-emscripten-core',
  '@jitl/quickjs-wasmfile-release-sync',
];

const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id);
const isExternal = (id) => isBare(id) && (id.startsWith('node:') || KEPT_EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)));
/** The declarations name every dependency's types by package; nothing of them is bundled. */
const isExternalType = isBare;

/**
 * The dynamic imports a server takes on its way to serving: the CLI's main module, the built-in plugins (every
 * server loads them all to start, builtin-plugins.ts) and the identity plugin's vault key reader (its boot reads
 * whether a key is set). Start-up is these and what they import statically; every other dynamic import is a
 * chunk of its own, loaded when first needed: the command-line parser and the commands (a server started with no
 * arguments, as MCP clients start it, serves without them), the HTTP transport and its authenticators, what
 * plugins contribute (routes, commands, console pages, mounted by contributions.ts), the console, the Prometheus
 * client, the cluster workers, the package resolver for plugins named by package, the JMESPath engine (the first
 * call with a jq), the pooled upstream client (the first call that reaches a vendor), code mode's runner and
 * sandbox (the first execute), the OpenTelemetry SDK (only a server told to export traces), the linked accounts'
 * vault and OAuth clients (only with a vault key). A dynamic import added later is lazy unless listed here, and
 * test/e2e/startup-modules.test.ts fails if a start then loads it.
 */
const START_PATH = [/\/server\/cli\/main\.ts$/, /\/server\/cli\/reflect-metadata\.ts$/, /\/plugins\/[\w-]+\/index\.ts$/, /\/plugins\/identity\/vault-key\.ts$/];

/**
 * The MCP SDK server's index module: the start-up code imports the low-level Server through it, but its own
 * code is the Streamable HTTP entry (createMcpHandler and its transports), which only the lazy HTTP transport
 * uses. Kept out of the start-up chunk, its code goes with the HTTP transport.
 */
const HTTP_ONLY = [/\/@modelcontextprotocol\/server\/dist\/index\.mjs$/];

/** Every module a server loads to start: the CLI and what it imports, statically or on the start path (START_PATH). */
function startupModules(getModuleInfo) {
  const seen = new Set();
  const stack = [resolvePath('server/cli.ts')];
  while (stack.length > 0) {
    const id = stack.pop();
    const info = seen.has(id) || HTTP_ONLY.some((only) => only.test(id)) ? null : getModuleInfo(id);
    if (!info || info.isExternal) continue;
    seen.add(id);
    stack.push(...info.importedIds, ...info.dynamicallyImportedIds.filter((d) => START_PATH.some((eager) => eager.test(d))));
  }
  return seen;
}

const REFLECT_METADATA_LOADER = resolvePath('server/cli/reflect-metadata.ts');

/**
 * Code mode's sandbox worker (dist/code-sandbox.js) runs in threads of its own: it must not load the start-up
 * chunk. The one module it shares with the server (how a program is stopped) is a chunk of its own.
 */
const SANDBOX_WORKER = 'plugins/code-mode/sandbox/sandbox-worker.ts';
const SANDBOX_SHARED = [resolvePath('plugins/code-mode/sandbox/program-stop.ts')];

/**
 * What the CLI runs before it loads the server: the compile cache must be on before the start-up chunk is
 * compiled, so this small module is a chunk of its own, evaluated first.
 */
const PRELUDE = [resolvePath('server/cli/compile-cache.ts')];

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
    if (PRELUDE.includes(id)) return 'prelude';
    if (SANDBOX_SHARED.includes(id)) return 'sandbox-shared';
    return startup.has(id) ? 'startup' : undefined;
  };
}

/** The public entry points: `mcp-devtools/plugin` and `mcp-devtools/testing` (package.json `exports`). */
const PUBLIC = {
  plugin: 'core/public/plugin.ts',
  testing: 'server/public/testing.ts',
};

/**
 * `rollup -c` writes dist/, which `npm start` and the package serve. `--configOutDir DIR` writes the same bundle
 * elsewhere: `npm test` bundles into build/dist, so a server running from dist/ is never pulled from under its
 * clients by a test run (it loads some chunks only when first needed).
 */
export default (commandLineArgs) => {
  const outDir = commandLineArgs.configOutDir ?? 'dist';
  // Rollup would take the option for one of its own and warn that it does not know it.
  delete commandLineArgs.configOutDir;
  return bundles(outDir);
};

const bundles = (outDir) => [
  {
    input: {
      cli: 'server/cli.ts',
      'code-sandbox': SANDBOX_WORKER,
      ...PUBLIC,
    },
    external: isExternal,
    output: {
      dir: outDir,
      format: 'es',
      sourcemap: true,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks: startupChunk(),
    },
    plugins: [
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
        // The bundle's own types are Node's: the tests' (mocha's, in test/node_modules) are not installed by `npm ci`.
        compilerOptions: { outDir, rootDir: '.', declaration: false, types: ['node'] },
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
      dir: outDir,
      format: 'es',
      entryFileNames: '[name].d.ts',
      chunkFileNames: 'chunks/[name]-[hash].d.ts',
    },
    plugins: [dts({ tsconfig: './tsconfig.json', compilerOptions: { types: ['node'] } })],
  },
];
