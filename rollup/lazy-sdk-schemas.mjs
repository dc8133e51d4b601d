// Builds the MCP SDK server's wire schemas one at a time, when first used (rollup plugin).
//
// The SDK builds each protocol era's wire schemas (some 140 zod schemas) on the first request of that era, all
// at once: the first initialize of a start paid for every schema of the era, including the tasks, sampling and
// resources ones the server never validates, which was a tenth of the time to the first tools/list. This
// rewrites the era's build function so that each of its schemas is built on first read and then kept:
//
//   const A = object({...});             const A = __once(() => object({...}));
//   const B = A.extend({...});     ->    const B = __once(() => A().extend({...}));
//   return { A, BSchema: B };            return { get A() { return A(); }, get BSchema() { return B(); } };
//
// and the era's registry maps (`requestSchemas: { ping: s.PingRequestSchema, ... }`) so that an entry reads its
// schema when it is looked up, not when the maps are made. Every schema is still one object for the process
// (each is built once and kept), which the SDK relies on (it compares and wraps them); what changes is only
// when it is built. A build function written otherwise than this expects fails the build, never the server.
import MagicString from 'magic-string';
import { isBinding, walk } from './estree-walk.mjs';

/** The SDK server's bundle (its file name carries a hash), and the functions rewritten in it. */
const SDK_SERVER = /\/@modelcontextprotocol\/server\/dist\/src-[\w-]+\.mjs$/;
const BUILDERS = ['build$1', 'build'];
const REGISTRY_MAPS = ['registryMaps'];
const ONCE = '__once';

export const lazySdkSchemas = {
  name: 'lazy-sdk-schemas',
  transform(code, id) {
    if (!SDK_SERVER.test(id)) return null;
    const ast = this.parse(code);
    const out = new MagicString(code);
    const functions = ast.body.filter((node) => node.type === 'FunctionDeclaration');
    const builders = functions.filter((fn) => BUILDERS.includes(fn.id.name));
    const maps = functions.filter((fn) => REGISTRY_MAPS.includes(fn.id.name));
    if (builders.length === 0 || maps.length === 0) throw new Error(`lazy-sdk-schemas: no schema builder or registry maps in ${id}`);
    for (const fn of builders) lazyBuilder(fn, code, out);
    for (const fn of maps) lazyMapEntries(fn, out);
    return { code: out.toString(), map: out.generateMap({ hires: true }) };
  },
};

/** `const NAME = INIT;` statements, then `return { ... }`: each NAME built once, on first read. */
function lazyBuilder(fn, code, out) {
  const body = fn.body.body;
  const names = new Set();
  for (const statement of body) {
    if (statement.type !== 'VariableDeclaration') continue;
    const [declarator] = statement.declarations;
    if (statement.kind !== 'const' || statement.declarations.length !== 1 || declarator.id.type !== 'Identifier' || !declarator.init) {
      throw new Error(
        `lazy-sdk-schemas: ${fn.id.name} declares something other than one constant at line ${code.slice(0, statement.start).split('\n').length}`,
      );
    }
    names.add(declarator.id.name);
  }
  const returned = body.at(-1);
  if (returned?.type !== 'ReturnStatement' || returned.argument?.type !== 'ObjectExpression')
    throw new Error(`lazy-sdk-schemas: ${fn.id.name} does not end by returning an object`);
  if (body.some((statement) => !['VariableDeclaration', 'FunctionDeclaration', 'ReturnStatement'].includes(statement.type))) {
    throw new Error(`lazy-sdk-schemas: ${fn.id.name} runs statements other than declarations`);
  }
  // Every read of a schema constant becomes a call; its declaration wraps its value in __once.
  for (const statement of body) {
    if (statement === returned) continue;
    if (statement.type === 'VariableDeclaration') {
      const { init } = statement.declarations[0];
      callReads(init, names, out, fn.id.name);
      out.appendLeft(init.start, `${ONCE}(() => (`);
      out.appendRight(init.end, '))');
    } else callReads(statement.body, names, out, fn.id.name);
  }
  const holders = [];
  returned.argument.properties.forEach((property, index) => {
    if (property.type !== 'Property' || property.computed || property.kind !== 'init')
      throw new Error(`lazy-sdk-schemas: ${fn.id.name} returns a computed or spread member`);
    const key = code.slice(property.key.start, property.key.end);
    if (property.value.type === 'Identifier' && names.has(property.value.name)) {
      out.overwrite(property.start, property.end, `get ${key}() { return ${property.value.name}(); }`);
      return;
    }
    if (property.shorthand) return; // a function of the builder's own: nothing to build
    // An expression built in the return itself (a union of schemas): built once too.
    callReads(property.value, names, out, fn.id.name);
    const holder = `${ONCE}$${index}`;
    holders.push(holder);
    out.overwrite(property.start, property.value.start, `get ${key}() { return ${holder} ??= (`);
    out.appendRight(property.value.end, '); }');
  });
  const declared = holders.length > 0 ? ` let ${holders.join(', ')};` : '';
  out.appendLeft(fn.body.start + 1, `\n\tconst ${ONCE} = (build) => { let built; return () => built ??= build(); };${declared}`);
}

/** Rewrites each read of one of `names` under `node` as a call; a name declared again inside fails the build. */
function callReads(node, names, out, where) {
  walk(node, null, (child, parent) => {
    if (child.type !== 'Identifier' || !names.has(child.name)) return;
    if (parent?.type === 'MemberExpression' && parent.property === child && !parent.computed) return;
    if (parent?.type === 'Property' && parent.key === child && !parent.computed && !parent.shorthand) return;
    if (isBinding(child, parent)) throw new Error(`lazy-sdk-schemas: ${where} declares ${child.name} again in a nested scope`);
    if (parent?.type === 'Property' && parent.shorthand) out.appendLeft(child.end, `: ${child.name}()`);
    else out.appendLeft(child.end, '()');
  });
}

/** `key: s.Schema` entries of the registry maps as getters: the schema is read when its method is looked up. */
function lazyMapEntries(fn, out) {
  let count = 0;
  walk(fn.body, null, (node) => {
    if (node.type !== 'Property' || node.computed || node.kind !== 'init' || node.value.type !== 'MemberExpression') return;
    if (node.value.object.type !== 'Identifier' || node.value.computed) return;
    out.prependLeft(node.key.start, 'get ');
    out.overwrite(node.key.end, node.value.start, '() { return ');
    out.appendRight(node.value.end, '; }');
    count++;
  });
  if (count === 0) throw new Error(`lazy-sdk-schemas: ${fn.id.name} has no schema entries`);
}
