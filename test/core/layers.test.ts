import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The layering, read from the sources with the TypeScript parser: every import, export-from, `import()` and
// `import('...')` type counts, type-only ones included.
//   core     imports nothing from plugins/ or server/ (core is what plugins build on);
//   plugins  import core, their own files and the shared libraries under plugins/ (folders without a @Plugin
//            class, such as atlassian/); never another plugin, and a shared library no plugin;
//   nothing  imports in a cycle.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Known exceptions, each with the reason it is still here. Empty: the test kit, which starts the real server,
 * moved from core/testing to server/testing; a new exception needs its reason written here.
 */
const PENDING_EXCEPTIONS: ReadonlyArray<{ from: RegExp; to: RegExp; why: string }> = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file names, resolved to a repository path (`core/http/types.ts`). */
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

const files = ['core', 'plugins', 'server'].flatMap(sourceFiles);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const isPending = (from: string, to: string): boolean => PENDING_EXCEPTIONS.some((e) => e.from.test(from) && e.to.test(to));
const folderOf = (file: string): string => file.split('/')[1] ?? '';
const pluginFolders = new Set(files.filter((f) => f.startsWith('plugins/') && /@Plugin\(/.test(readFileSync(join(ROOT, f), 'utf8'))).map(folderOf));

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
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

describe('layers (read from the import statements)', () => {
  it('reads the sources it judges: every folder of core, plugins and server, and the plugins by their @Plugin', () => {
    expect(files.length).to.be.above(150);
    expect([...pluginFolders].sort()).to.include.members(['artifacts', 'cache', 'github', 'policy', 'structured']);
    expect(pluginFolders.has('atlassian')).to.equal(false); // a shared library: no @Plugin of its own
    expect(graph.get('core/plugin/contract.ts')).to.include('core/plugin/tool-spec.ts');
  });

  it('core imports nothing from plugins/ or server/ (the test kit excepted until the v2 merge)', () => {
    const upward = [...graph].flatMap(([from, to]) =>
      from.startsWith('core/')
        ? to.filter((t) => (t.startsWith('plugins/') || t.startsWith('server/')) && !isPending(from, t)).map((t) => `${from} -> ${t}`)
        : [],
    );
    expect(upward).to.deep.equal([]);
  });

  it('lists only exceptions that still exist', () => {
    for (const exception of PENDING_EXCEPTIONS) {
      const used = [...graph].some(([from, to]) => exception.from.test(from) && to.some((t) => exception.to.test(t)));
      expect(used, `stale exception (${exception.why}): remove it`).to.equal(true);
    }
  });

  it('a plugin imports no other plugin, and a shared library under plugins/ imports no plugin', () => {
    const crossing = [...graph].flatMap(([from, to]) => {
      if (!from.startsWith('plugins/')) return [];
      return to.filter((t) => t.startsWith('plugins/') && folderOf(t) !== folderOf(from) && pluginFolders.has(folderOf(t))).map((t) => `${from} -> ${t}`);
    });
    expect(crossing).to.deep.equal([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(graph)).to.deep.equal([]);
  });

  it('finds a cycle and an upward import when there is one (the checks can fail)', () => {
    const broken = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/c.ts', 'plugins/x/index.ts']],
      ['core/c.ts', ['core/a.ts']],
    ]);
    expect(cycles(broken)).to.deep.equal([['core/a.ts', 'core/b.ts', 'core/c.ts']]);
    const typeOnly = importsOf('core/pipeline/stages.ts');
    expect(typeOnly).to.include('core/pipeline/call-context.ts'); // `import type` is read like any other import
  });
});
