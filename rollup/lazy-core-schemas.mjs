// Builds the MCP SDK's protocol schemas (its core package's ~180 zod schemas) when first read (rollup plugin).
//
// The core package declares every schema of the protocol as a module constant, so importing the SDK built
// them all, some thousand zod objects, about a third of evaluating the start-up chunk, though a start reads a
// few dozen of them before its first tools/list. Each becomes a function that builds its schema on first call
// and then returns that same object, which the SDK relies on (it compares and wraps its schemas):
//
// - transform, in the core package's schema modules: `const A = z.object({...});` becomes
//   `const A = /* @__PURE__ */ __lazySchema(() => z.object({...}));` (a schema nothing reads is still dropped);
// - renderChunk, once the modules of a chunk share one scope: every read of such a constant becomes a call,
//   `A` -> `A()`, in every chunk. A chunk hands the function itself to the chunks that import it; an entry
//   point (the public `mcp-devtools/plugin` and `testing`) exports the schema, built.
//
// Another chunk's import is known by its name (rollup keeps an imported binding's name, or adds `$n`); the
// build checks that every import read as a function is one (generateBundle), so a wrong guess fails the build,
// never the server. A nested scope that declares a name of its own keeps it.
import { attachScopes } from '@rollup/pluginutils';
import MagicString from 'magic-string';
import { walk } from './estree-walk.mjs';

/** The core package's modules that declare schemas (their file names carry a hash). */
const SCHEMA_MODULES = /\/@modelcontextprotocol\/core\/dist\/(schemas|auth)-[\w-]+\.mjs$/;
const HELPER_ID = '\0lazy-core-schema';
const HELPER = '__lazySchema';
/** The SDK server's bundle, whose module constants made of schemas would build them as it is imported. */
const SDK_SERVER = /\/@modelcontextprotocol\/server\/dist\/src-[\w-]+\.mjs$/;
/** Initialisers that build something: calls (`z.object(...)`, `A.extend(...)`) and aliases of another constant. */
const BUILT = ['CallExpression', 'Identifier'];

export function lazyCoreSchemas() {
  /** Every schema constant's name in the core package. */
  const schemaNames = new Set();
  /** `chunk file name -> export names` that are functions; every import from another chunk, and re-export. */
  const functionExports = new Map();
  const imports = [];
  const reExports = [];
  /** The core package's schemas the SDK server reads as functions. */
  const serverReads = new Set();
  return {
    name: 'lazy-core-schemas',
    buildStart() {
      schemaNames.clear();
      serverReads.clear();
    },
    renderStart() {
      functionExports.clear();
      imports.length = 0;
      reExports.length = 0;
    },
    resolveId: (source) => (source === HELPER_ID ? HELPER_ID : null),
    load: (id) => (id === HELPER_ID ? `export function ${HELPER}(build) { let built; return () => built ??= build(); }\n` : null),
    transform(code, id) {
      if (SDK_SERVER.test(id)) return lazyServerConstants.call(this, code, schemaNames, serverReads);
      if (!SCHEMA_MODULES.test(id)) return null;
      const out = new MagicString(code);
      for (const statement of this.parse(code).body) {
        if (statement.type !== 'VariableDeclaration') continue;
        for (const { id: name, init } of statement.declarations) {
          if (!init || !BUILT.includes(init.type)) continue;
          builtOnFirstRead(init, out);
          schemaNames.add(name.name);
        }
      }
      if (!out.hasChanged()) throw new Error(`lazy-core-schemas: no schema constants in ${id}`);
      out.prepend(`import { ${HELPER} } from '${HELPER_ID}';\n`);
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
    buildEnd(error) {
      const missed = [...serverReads].filter((name) => !schemaNames.has(name));
      if (!error && missed.length > 0) throw new Error(`lazy-core-schemas: the core package does not declare ${missed.join(', ')} as schemas`);
    },
    renderChunk(code, chunk) {
      const ast = this.parse(code);
      // `export { a as B } from './chunk.js'` passes on whatever that chunk exports: never a schema's function.
      for (const statement of ast.body) {
        if (statement.type !== 'ExportNamedDeclaration' || !statement.source?.value.startsWith('.')) continue;
        const from = joinPath(chunk.fileName, statement.source.value);
        for (const { local } of statement.specifiers) reExports.push({ from, name: local.name, by: chunk.fileName });
      }
      const lazy = lazyNames(ast, chunk, schemaNames, imports);
      if (lazy.size === 0) return null;
      const out = new MagicString(code);
      const exported = callReads(ast, lazy, out);
      if (chunk.isEntry) exportBuilt(exported, code, out);
      else functionExports.set(chunk.fileName, new Set(exported.map(({ exported: name }) => name.name)));
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
    generateBundle() {
      for (const { from, name, local, asFunction, by } of imports) {
        const isFunction = name === '*' ? (functionExports.get(from)?.size ?? 0) > 0 : (functionExports.get(from)?.has(name) ?? false);
        if (isFunction !== asFunction) {
          throw new Error(
            `lazy-core-schemas: ${by} imports ${local} from ${from} as ${asFunction ? '' : 'not '}a schema's function, which it is${isFunction ? '' : ' not'}`,
          );
        }
      }
      for (const { from, name, by } of reExports) {
        if (functionExports.get(from)?.has(name)) throw new Error(`lazy-core-schemas: ${by} passes on ${name} of ${from}, a schema's function, as it is`);
      }
    },
  };
}

/**
 * The chunk's schema functions: its constants declared through the helper, and what it imports from another
 * chunk under a schema's name. Every import from another chunk is recorded in `imports`, checked once every chunk
 * is rendered.
 */
function lazyNames(ast, chunk, schemaNames, imports) {
  const isHelper = (name) => new RegExp(`^${HELPER}(\\$\\d+)?$`).test(name);
  const lazy = new Set();
  for (const statement of ast.body) {
    if (statement.type === 'VariableDeclaration') {
      for (const { id, init } of statement.declarations) {
        if (init?.type === 'CallExpression' && init.callee.type === 'Identifier' && isHelper(init.callee.name)) lazy.add(id.name);
      }
    }
    if (statement.type !== 'ImportDeclaration' || !statement.source.value.startsWith('.')) continue;
    const from = joinPath(chunk.fileName, statement.source.value);
    for (const specifier of statement.specifiers) {
      const name = specifier.type === 'ImportSpecifier' ? specifier.imported.name : '*';
      const asFunction = name !== '*' && schemaNames.has(specifier.local.name.replace(/\$\d+$/, ''));
      if (asFunction) lazy.add(specifier.local.name);
      imports.push({ from, name, local: specifier.local.name, asFunction, by: chunk.fileName });
    }
  }
  return lazy;
}

/** `chunks/a.js` + `./b.js` -> `chunks/b.js`; `cli.js` + `./chunks/b.js` -> `chunks/b.js`. */
function joinPath(importer, source) {
  const parts = importer.split('/').slice(0, -1);
  for (const part of source.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * Rewrites every read of a name in `lazy` as a call, except where a nested scope declares the name itself (the
 * SDK server's era builders declare their own copies); returns the export specifiers that name one.
 */
function callReads(ast, lazy, out) {
  const exported = [];
  const rewritten = new Set();
  const root = attachScopes(ast, 'scope');
  const scopes = [root];
  const isTopLevel = (name) => {
    for (let scope = scopes.at(-1); scope !== root; scope = scope.parent) if (scope.declarations[name]) return false;
    return true;
  };
  const enter = (node, parent) => {
    if (node.scope && node !== ast) scopes.push(node.scope);
    if (node.type !== 'Identifier' || !lazy.has(node.name) || !isTopLevel(node.name)) return;
    if (parent?.type === 'ExportSpecifier') {
      if (parent.local === node) exported.push(parent);
      return;
    }
    if (!isRead(node, parent) || rewritten.has(node.start)) return;
    // A shorthand property's key and value may be one node, visited twice.
    rewritten.add(node.start);
    if (parent?.type === 'Property' && parent.shorthand) out.appendLeft(node.end, `: ${node.name}()`);
    else out.appendLeft(node.end, '()');
  };
  const leave = (node) => {
    if (node.scope && node !== ast) scopes.pop();
  };
  walk(ast, null, enter, leave);
  return exported;
}

/** Whether an identifier reads a variable: not its declaration, a property name, a key, an import or a label. */
function isRead(node, parent) {
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.init === node;
    case 'MemberExpression':
      return parent.object === node || parent.computed;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return parent.value === node || (parent.computed && parent.key === node);
    case 'ImportSpecifier':
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return false;
    default:
      return true;
  }
}

/**
 * An entry point exports the schema built: `export { A as x }` becomes `const A$built = A();` on the line
 * before and `export { A$built as x }`, the export still one line.
 */
function exportBuilt(specifiers, code, out) {
  if (specifiers.length === 0) return;
  const names = [...new Set(specifiers.map(({ local }) => local.name))];
  const lineStart = code.lastIndexOf('\n', specifiers[0].start) + 1;
  out.appendLeft(lineStart, `const ${names.map((name) => `${name}$built = ${name}()`).join(', ')};\n`);
  for (const { local, exported } of specifiers) {
    // `export { A }`: one identifier is both names.
    out.appendLeft(local.end, exported.start === local.start ? `$built as ${local.name}` : '$built');
  }
}

/**
 * The SDK server's own module constants made from schemas when it is imported (the elicitation grammar's key
 * sets, made from the schemas' shapes) become functions too, and its registry of every spec type
 * (`specTypeSchemas`, `isSpecType`, which the server never reads) reads each schema when an entry is read.
 */
function lazyServerConstants(code, schemaNames, serverReads) {
  const ast = this.parse(code);
  const lazy = new Set();
  for (const statement of ast.body) {
    if (statement.type !== 'ImportDeclaration' || statement.source.value !== '@modelcontextprotocol/core/internal') continue;
    // Transformed before the core package (its imports are found by transforming it): a schema is known by its
    // name here, and the build checks that the core package made each of these a function (buildEnd).
    for (const { imported, local } of statement.specifiers) if (/Schema$/.test(local.name) && imported.name === local.name) lazy.add(local.name);
  }
  if (lazy.size === 0) throw new Error('lazy-core-schemas: the SDK server imports no schemas from its core package');
  for (const name of lazy) serverReads.add(name);
  const out = new MagicString(code);
  for (const statement of ast.body) {
    if (statement.type !== 'VariableDeclaration' || statement.kind !== 'const') continue;
    for (const { id, init } of statement.declarations) {
      if (!init || !readsNow(init, lazy)) continue;
      if (isObjectOf(init, lazy)) {
        // `{ A, B }` -> `{ get A() { return A; }, ... }`: each read when its key is (the reads become calls).
        for (const property of init.properties) out.overwrite(property.start, property.end, `get ${property.key.name}() { return ${property.key.name}; }`);
        continue;
      }
      builtOnFirstRead(init, out);
      lazy.add(id.name);
      schemaNames.add(id.name);
    }
  }
  for (const [before, after] of SPEC_TYPE_REGISTRY) {
    const at = code.indexOf(before);
    if (at === -1 || code.indexOf(before, at + 1) !== -1) throw new Error(`lazy-core-schemas: the SDK server no longer reads: ${before}`);
    out.overwrite(at, at + before.length, after);
  }
  out.prepend(`import { ${HELPER} } from '${HELPER_ID}';\n`);
  return { code: out.toString(), map: out.generateMap({ hires: true }) };
}

/** The spec-type registry's lines, and what each becomes: an entry's schema is read through a getter. */
const SPEC_TYPE_REGISTRY = [
  ['\t_specTypeSchemas[name] = schema;\n', '\tObject.defineProperty(_specTypeSchemas, name, { get: schema, enumerable: true });\n'],
  ['\t_isSpecType[name] = (v) => schema.safeParse(v).success;\n', '\t_isSpecType[name] = (v) => schema().safeParse(v).success;\n'],
  ['register(key, schemas_exports[key]);', 'register(key, () => schemas_exports[key]);'],
  [
    'for (const [key, schema] of Object.entries(authSchemas)) register(key, schema);',
    'for (const key of Object.keys(authSchemas)) register(key, () => authSchemas[key]);',
  ],
];

/** `INIT` -> `__lazySchema(() => (INIT))`, marked pure: a function that builds the value on first call, then keeps it. */
function builtOnFirstRead(init, out) {
  out.appendLeft(init.start, `/* @__PURE__ */ ${HELPER}(() => (`);
  out.appendRight(init.end, '))');
}

/** Whether `node` is an object of schemas named by themselves: `{ A, B }`. */
function isObjectOf(node, names) {
  return (
    node.type === 'ObjectExpression' && node.properties.every((property) => property.type === 'Property' && property.shorthand && names.has(property.key.name))
  );
}

/** Whether evaluating `node` reads one of `names` at once (not only inside a function it makes). */
function readsNow(node, names) {
  if (!node || typeof node.type !== 'string') return false;
  if (node.type === 'Identifier') return names.has(node.name);
  if (['ArrowFunctionExpression', 'FunctionExpression', 'ClassExpression'].includes(node.type)) return false;
  return Object.entries(node).some(([key, value]) => {
    if (key === 'key' && !node.computed) return false;
    if (node.type === 'MemberExpression' && key === 'property' && !node.computed) return false;
    return Array.isArray(value) ? value.some((item) => readsNow(item, names)) : value && typeof value.type === 'string' && readsNow(value, names);
  });
}
