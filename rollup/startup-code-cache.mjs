// Loads the start-up chunk through a V8 code cache (rollup plugin).
//
// Compiling the start-up chunk (2 MB: the server, the MCP SDK, zod, TypeBox, pino) was a fifth of every start.
// Node 20 caches compiled code only for what it runs through vm.Script (module.enableCompileCache is Node 22),
// so the chunk's code is written to a file of its own as one function expression, and the chunk itself becomes
// a small ES module that runs that function once (through vm.Script with the cache, dist/chunks/code-cache.js)
// and exports what it returns. Every importer (the CLI, `mcp-devtools/plugin`, `mcp-devtools/testing`, the
// lazy chunks) still imports the chunk as an ES module, so there is one instance of the server's classes, DI
// tokens and decorator metadata, as before.
//
// What an ES module has that a function has not is handed in by the chunk: its `require` (built-ins, see
// requireBuiltins), its dynamic `import()` (which resolves relative to the chunk, beside the code file), its
// `import.meta` and its external packages (keyv). The code keeps its line numbers, so the chunk's source map
// still maps it (Node 20 does not apply source maps to vm code itself: a stack trace names the code file's line).
// The chunk reads its exports once the code has run: a binding the code reassigned later would not be seen,
// which bundled code does not do (rollup's exports are functions, classes and constants).
import { asciiSource } from './ascii-source.mjs';
import { readFileSync } from 'node:fs';

const LOADER = 'chunks/code-cache.js';
const IMPORT = '__import';
const IMPORT_META = '__importMeta';
const EXTERNALS = '__externals';

/** @param {string} chunkName the chunk that runs through the code cache (a manual chunk's name) */
export function startupCodeCache(chunkName) {
  const isCached = (name) => name === chunkName;
  // While rendering, a chunk's file name still holds a placeholder for its hash: `chunks/startup-!~{001}~.js`.
  const isCachedFile = (fileName) => basename(fileName).startsWith(`${chunkName}-`);
  let loaderEmitted = false;
  return {
    name: 'startup-code-cache',
    // `import()` and `import.meta` of the cached chunk become the module's own, handed in.
    renderDynamicImport: ({ chunk }) => (chunk && isCached(chunk.name) ? { left: `${IMPORT}(`, right: ')' } : null),
    resolveImportMeta: (property, { chunkId }) => (isCachedFile(chunkId) ? (property === null ? IMPORT_META : `${IMPORT_META}.${property}`) : null),
    // After rendering: the chunk's file name (with its hash) is known only now.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !isCached(chunk.name)) continue;
        const codeFile = chunk.fileName.replace(/\.js$/, '.code.js');
        const { body, externals, exported } = asFunction(chunk.code.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
        const names = exported.map(({ name }) => name).sort();
        if (names.join() !== [...chunk.exports].sort().join()) throw new Error('startup-code-cache: cannot read the export line');
        this.emitFile({
          type: 'asset',
          fileName: codeFile,
          source: `${asciiSource(body, (message) => this.warn(message))}//# sourceMappingURL=${basename(chunk.fileName)}.map\n`,
        });
        chunk.code = moduleFor(basename(codeFile), externals, exported);
        chunk.map = null;
        if (!loaderEmitted) {
          this.emitFile({ type: 'asset', fileName: LOADER, source: readFileSync(new URL('./code-cache.js', import.meta.url), 'utf8') });
          loaderEmitted = true;
        }
      }
    },
  };
}

const basename = (path) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The chunk's code as `(function (...) { 'use strict'; <code> return { <exports> }; })`, line for line: the
 * import lines at its top become the matching `const` lines, its closing export line the return.
 */
function asFunction(code) {
  const lines = code.split('\n');
  const externals = [];
  const requirePrologue = /^import \{ createRequire as __createRequire \} from 'node:module'; const __require = __createRequire\(import\.meta\.url\); /;
  // The import lines, and the built-ins' require lines that requireBuiltins put among them.
  // (A built-in required on first use is a function or a proxy that requires it and keeps it:
  // `const a = ((module) => (...args) => (module ??= __require(...)).a(...args))()`.)
  const isHeader = (line) => line.startsWith('import ') || /^(const [^=]+ = )?(\(\) => |\(\(module\) => .*|new Proxy\(.*)?__require\(/.test(line);
  for (let i = 0; i < lines.length && isHeader(lines[i]); i++) {
    if (!lines[i].startsWith('import ')) continue;
    if (requirePrologue.test(lines[i])) {
      lines[i] = lines[i].replace(requirePrologue, '');
      continue;
    }
    const parsed = /^import (?:(?<clause>[^']*?) from )?'(?<id>[^']+)';$/.exec(lines[i])?.groups;
    if (!parsed) throw new Error(`startup-code-cache: cannot read the import line ${lines[i]}`);
    externals.push(parsed.id);
    lines[i] = bindingsOf(parsed.clause, `${EXTERNALS}[${externals.length - 1}]`);
  }
  const last = lines.findLastIndex((line) => line.startsWith('export {'));
  const exported = [...lines[last].matchAll(/([\w$]+)(?: as ([\w$]+))?/g)].slice(1).map(([, local, name]) => ({ local, name: name ?? local }));
  lines[last] = `return { ${exported.map(({ local, name }) => `${JSON.stringify(name)}: ${local}`).join(', ')} };`;
  if (lines.slice(last + 1).some((line) => line.trim() !== '' && !line.startsWith('//# sourceMappingURL='))) {
    throw new Error('startup-code-cache: code after the export line');
  }
  lines[0] = `(function (__require, ${IMPORT}, ${IMPORT_META}, ${EXTERNALS}) { 'use strict'; ${lines[0]}`;
  lines[last] += ' })';
  return { body: lines.join('\n'), externals, exported };
}

/** `import { a, b as c } from 'x'` (or a default or namespace import) as `const { a, b: c } = <namespace>;`. */
function bindingsOf(clause, namespace) {
  if (clause === undefined) return '';
  const parts = /^(?:\* as (?<star>[\w$]+)|(?<def>[\w$]+)?(?:, )?(?:\{ (?<named>[^}]*) \})?)$/.exec(clause)?.groups;
  if (!parts) throw new Error(`startup-code-cache: cannot read the import ${clause}`);
  if (parts.star) return `const ${parts.star} = ${namespace};`;
  const bindings = [parts.def && `default: ${parts.def}`, parts.named?.replaceAll(' as ', ': ')].filter(Boolean);
  return `const { ${bindings.join(', ')} } = ${namespace};`;
}

/** The chunk's ES module: imports what the code needs, runs it once through the cache, exports its bindings. */
function moduleFor(codeFile, externals, exported) {
  const lines = [
    `import { runCached } from './${basename(LOADER)}';`,
    // Written as rollup writes imports (single quotes, a line each), which is how the package test reads them.
    ...externals.map((id, index) => `import * as __external${index} from '${id}';`),
    `const __exports = runCached(new URL(${JSON.stringify(`./${codeFile}`)}, import.meta.url), [(specifier, options) => import(specifier, options), import.meta, [${externals.map((_, index) => `__external${index}`).join(', ')}]]);`,
    `const { ${exported.map(({ name }, index) => `${JSON.stringify(name)}: __e${index}`).join(', ')} } = __exports;`,
    `export { ${exported.map(({ name }, index) => `__e${index} as ${name}`).join(', ')} };`,
  ];
  return lines.join('\n') + '\n';
}
