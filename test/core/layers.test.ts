import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { CORE_FLOORS, SERVER_FLOORS } from '../support/floors.js';

// The layering, read from the sources with the TypeScript parser: every import, export-from, `import()` and
// `import('...')` type counts, type-only ones included.
//   core     its folders are floors in one order (CORE_FLOORS): a folder imports only its own files and the
//            floors below it, so no folder imports one above it and no folders import each other in a loop;
//            core imports nothing from plugins/ or server/;
//   plugins  import core, their own files and the shared libraries under plugins/ meant for them (folders
//            without a @Plugin class: atlassian/ for Jira, Confluence and Bitbucket); never another plugin;
//   server   its folders are floors too (SERVER_FLOORS), held the same way, its one top-level file (the CLI's
//            entry, cli.ts) above them all; it reaches a plugin only to load it (server/bootstrap), through its
//            entry point (index.ts), never the files behind it: what a plugin adds to the server (routes,
//            commands, console pages) comes through the contribution points of the plugin contract;
//   nothing  imports in a cycle.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The floors of core/ and server/, and where a file right under the top folder stands: core's below, server's (the CLI entry) above. */
const FLOORS = {
  core: { floors: CORE_FLOORS as readonly string[], topFiles: -1 },
  server: { floors: SERVER_FLOORS as readonly string[], topFiles: SERVER_FLOORS.length },
} as const;
type Layered = keyof typeof FLOORS;

/** Shared libraries under plugins/ (no @Plugin of their own) and the plugins they serve. */
const SHARED_LIBRARIES: Readonly<Record<string, readonly string[]>> = {
  atlassian: ['jira', 'confluence', 'bitbucket'],
  // What a request names for the allowlists: the settings (allowlists), the `resources` condition (policy), and
  // whether any list is set, which decides if code mode declares the results' `allowlist` member (code-mode).
  'resource-names': ['allowlists', 'policy', 'code-mode'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file names, resolved to a repository path (`core/http/upstream-client.ts`). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const named: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      named.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      named.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      named.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return named.filter((m) => m.startsWith('.')).map((m) => normalize(join(dirname(file), m.replace(/\.js$/, '.ts'))));
}

type Graph = ReadonlyMap<string, readonly string[]>;

const files = ['core', 'plugins', 'server'].flatMap(sourceFiles);
const graph: Graph = new Map(files.map((f) => [f, importsOf(f)]));
/** The folder right under the top one (`core/http/x.ts` -> `http`); '' for a file at its top (core/tokens.ts). */
const folderOf = (file: string): string => (file.split('/').length > 2 ? file.split('/')[1]! : '');
const pluginFolders = new Set(files.filter((f) => f.startsWith('plugins/') && /@Plugin\(/.test(readFileSync(join(ROOT, f), 'utf8'))).map(folderOf));

/** Imports from a folder of `top` (core, server) to one on a higher floor, or to a folder its floors do not place. */
function upward(edges: Graph, top: Layered = 'core'): string[] {
  const { floors, topFiles } = FLOORS[top];
  const floor = (file: string): number => (folderOf(file) === '' ? topFiles : floors.indexOf(folderOf(file)));
  return [...edges].flatMap(([from, to]) => {
    if (!from.startsWith(`${top}/`)) return [];
    return to
      .filter((t) => t.startsWith(`${top}/`) && folderOf(t) !== folderOf(from))
      .filter((t) => (floor(t) === -1 && folderOf(t) !== '' ? true : floor(t) > floor(from)))
      .map((t) => `${from} -> ${t}`);
  });
}

/** Imports from a plugin to another plugin, or to a shared library not meant for it. */
function crossingPlugins(edges: Graph, plugins: ReadonlySet<string>): string[] {
  return [...edges].flatMap(([from, to]) => {
    if (!from.startsWith('plugins/')) return [];
    const own = folderOf(from);
    return to
      .filter((t) => t.startsWith('plugins/') && folderOf(t) !== own)
      .filter((t) => plugins.has(folderOf(t)) || !(SHARED_LIBRARIES[folderOf(t)] ?? []).includes(own))
      .map((t) => `${from} -> ${t}`);
  });
}

/** Imports from server/ into a plugin's files other than its entry point, or into a plugin from anywhere but the plugin loader. */
function intoPluginInternals(edges: Graph): string[] {
  return [...edges].flatMap(([from, to]) =>
    from.startsWith('server/')
      ? to
          .filter((t) => t.startsWith('plugins/') && (!/^plugins\/[^/]+\/index\.ts$/.test(t) || !from.startsWith('server/bootstrap/')))
          .map((t) => `${from} -> ${t}`)
      : [],
  );
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(edges: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** The graph of the folders of `top` (core, server): an edge for every import from one folder to another. */
function folderGraph(edges: Graph, top: Layered = 'core'): Graph {
  const folders = new Map<string, Set<string>>();
  for (const [from, to] of edges) {
    if (!from.startsWith(`${top}/`) || folderOf(from) === '') continue;
    const out = folders.get(folderOf(from)) ?? new Set<string>();
    for (const t of to) if (t.startsWith(`${top}/`) && folderOf(t) !== '' && folderOf(t) !== folderOf(from)) out.add(folderOf(t));
    folders.set(folderOf(from), out);
  }
  return new Map([...folders].map(([f, out]) => [f, [...out]]));
}

describe('layers (read from the import statements)', () => {
  it('reads the sources it judges: every folder of core, plugins and server, and the plugins by their @Plugin', () => {
    expect(files.length).to.be.above(150);
    expect([...pluginFolders].sort()).to.include.members(['artifacts', 'cache', 'github', 'policy', 'structured']);
    expect(pluginFolders.has('atlassian')).to.equal(false); // a shared library: no @Plugin of its own
    expect(graph.get('core/plugin/contract.ts')).to.include('core/plugin/tool-spec.ts');
  });

  it('places every folder of core on a floor (a new folder is given its place in CORE_FLOORS)', () => {
    const folders = [...new Set(files.filter((f) => f.startsWith('core/')).map(folderOf))].filter((f) => f !== '');
    expect(folders.filter((f) => !(CORE_FLOORS as readonly string[]).includes(f))).to.deep.equal([]);
  });

  it('core: no folder imports a folder on a floor above it, so no folders import each other in a loop', () => {
    expect(upward(graph)).to.deep.equal([]);
    expect(cycles(folderGraph(graph))).to.deep.equal([]);
  });

  it('places every folder of server on a floor (a new folder is given its place in SERVER_FLOORS)', () => {
    const folders = [...new Set(files.filter((f) => f.startsWith('server/')).map(folderOf))].filter((f) => f !== '');
    expect(folders.filter((f) => !(SERVER_FLOORS as readonly string[]).includes(f))).to.deep.equal([]);
    expect(files.filter((f) => f.startsWith('server/') && folderOf(f) === '')).to.deep.equal(['server/cli.ts']);
  });

  it('server: no folder imports a folder on a floor above it, so no folders import each other in a loop', () => {
    expect(upward(graph, 'server')).to.deep.equal([]);
    expect(cycles(folderGraph(graph, 'server'))).to.deep.equal([]);
  });

  it('core imports nothing from plugins/ or server/', () => {
    const outward = [...graph].flatMap(([from, to]) =>
      from.startsWith('core/') ? to.filter((t) => t.startsWith('plugins/') || t.startsWith('server/')).map((t) => `${from} -> ${t}`) : [],
    );
    expect(outward).to.deep.equal([]);
  });

  it('a plugin imports core and its own files, never another plugin; a shared library only where it is meant', () => {
    expect(crossingPlugins(graph, pluginFolders)).to.deep.equal([]);
    const intoServer = [...graph].flatMap(([from, to]) =>
      from.startsWith('plugins/') ? to.filter((t) => t.startsWith('server/')).map((t) => `${from} -> ${t}`) : [],
    );
    expect(intoServer).to.deep.equal([]);
  });

  it('server/ reaches a plugin (policy included) only to load it, through its entry point, never its internals', () => {
    expect(intoPluginInternals(graph)).to.deep.equal([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(graph)).to.deep.equal([]);
  });

  describe('the checks can fail', () => {
    it('on a cycle of files and on a cycle of core folders', () => {
      const broken = new Map([
        ['core/a.ts', ['core/b.ts']],
        ['core/b.ts', ['core/c.ts', 'plugins/x/index.ts']],
        ['core/c.ts', ['core/a.ts']],
      ]);
      expect(cycles(broken)).to.deep.equal([['core/a.ts', 'core/b.ts', 'core/c.ts']]);
      const folders = new Map([
        ['core/http/client.ts', ['core/pipeline/stage.ts']],
        ['core/pipeline/stage.ts', ['core/http/types.ts']],
      ]);
      expect(cycles(folderGraph(folders))).to.deep.equal([['http', 'pipeline']]);
      expect(upward(folders)).to.deep.equal(['core/http/client.ts -> core/pipeline/stage.ts']);
    });

    it('on an upward import in core and on a folder no floor names', () => {
      expect(upward(new Map([['core/text/words.ts', ['core/kernel/kernel.ts']]]))).to.deep.equal(['core/text/words.ts -> core/kernel/kernel.ts']);
      expect(upward(new Map([['core/http/x.ts', ['core/newfolder/y.ts']]]))).to.deep.equal(['core/http/x.ts -> core/newfolder/y.ts']);
      expect(upward(new Map([['core/kernel/kernel.ts', ['core/text/words.ts']]]))).to.deep.equal([]);
    });

    it('on a vendor importing another plugin, and on a shared library used by a plugin it is not meant for', () => {
      const plugins = new Set(['github', 'circleci', 'jira', 'policy']);
      expect(crossingPlugins(new Map([['plugins/github/index.ts', ['plugins/circleci/step-logs.ts']]]), plugins)).to.have.length(1);
      expect(crossingPlugins(new Map([['plugins/github/index.ts', ['plugins/atlassian/product.ts']]]), plugins)).to.have.length(1);
      expect(crossingPlugins(new Map([['plugins/jira/index.ts', ['plugins/atlassian/product.ts']]]), plugins)).to.deep.equal([]);
    });

    it('on server/ importing policy internals, or a plugin from anywhere but the loader (but not the loader its entry point)', () => {
      const edges = new Map([
        ['server/cli/policy-command.ts', ['plugins/policy/engine/policy-engine.ts', 'plugins/policy/index.ts']],
        ['server/bootstrap/builtin-plugins.ts', ['plugins/policy/index.ts', 'plugins/policy/console/approvals-console.ts']],
      ]);
      expect(intoPluginInternals(edges)).to.deep.equal([
        'server/cli/policy-command.ts -> plugins/policy/engine/policy-engine.ts',
        'server/cli/policy-command.ts -> plugins/policy/index.ts',
        'server/bootstrap/builtin-plugins.ts -> plugins/policy/console/approvals-console.ts',
      ]);
    });

    it('on a cycle of server folders, and on a server folder importing one above it or one no floor names', () => {
      const folders = new Map([
        ['server/auth/oidc-authenticator.ts', ['server/transports/origin-check.ts']],
        ['server/transports/http.ts', ['server/auth/authenticator.ts']],
      ]);
      expect(cycles(folderGraph(folders, 'server'))).to.deep.equal([['auth', 'transports']]);
      expect(upward(folders, 'server')).to.deep.equal(['server/auth/oidc-authenticator.ts -> server/transports/origin-check.ts']);
      expect(upward(new Map([['server/routes/x.ts', ['server/admin/y.ts']]]), 'server')).to.deep.equal(['server/routes/x.ts -> server/admin/y.ts']);
      expect(upward(new Map([['server/cli.ts', ['server/cli/main.ts']]]), 'server')).to.deep.equal([]);
      expect(upward(new Map([['server/cli/main.ts', ['server/cli.ts']]]), 'server')).to.have.length(1);
    });

    it('reads type-only imports like any other', () => {
      expect(importsOf('core/plugin/stages.ts')).to.include('core/plugin/call.ts');
    });
  });
});
