import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

const EXAMPLE = join(REPO_ROOT, 'examples/plugin-gitlab');
/** The example that pages by cursor: the guide's cursor section quotes it. */
const CURSOR_EXAMPLE = join(REPO_ROOT, 'examples/plugin-sentry');
/** The example that speaks GraphQL: the guide's GraphQL section quotes it. */
const GRAPHQL_EXAMPLE = join(REPO_ROOT, 'examples/plugin-linear');
/** The example that contributes a route, a command and a console page: the guide's section on them quotes it. */
const CONTRIBUTING_EXAMPLE = join(REPO_ROOT, 'examples/plugin-notes');
const DOC = readFileSync(join(REPO_ROOT, 'docs/plugins.md'), 'utf8');

/** The example's own files (sources, tests, package files, README), by path relative to the example. */
function exampleFiles(example = EXAMPLE): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'build'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|json|md)$/.test(entry.name) && entry.name !== 'package-lock.json') files.set(relative(example, path), readFileSync(path, 'utf8'));
    }
  };
  walk(example);
  return files;
}

function lineCount(text: string): number {
  return (text.match(/\n/g) ?? []).length; // as wc -l counts
}

describe('docs/plugins.md', () => {
  const files = exampleFiles();
  const blocks = [...DOC.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));

  it('has code blocks, each taken verbatim from an example package', () => {
    expect(blocks.length).to.be.greaterThan(10);
    const quotable = [
      ...files.values(),
      ...exampleFiles(CURSOR_EXAMPLE).values(),
      ...exampleFiles(GRAPHQL_EXAMPLE).values(),
      ...exampleFiles(CONTRIBUTING_EXAMPLE).values(),
    ];
    for (const { lang, code } of blocks) {
      const found = quotable.filter((text) => text.includes(code));
      expect(
        found,
        `this ${lang} block is not in any file of examples/plugin-gitlab, plugin-sentry, plugin-linear or plugin-notes:\n${code}`,
      ).not.to.deep.equal([]);
    }
  });

  it('walks through every source file of the example', () => {
    const sources = [...files.keys()].filter((p) => p.startsWith('src/'));
    for (const path of sources) {
      const quoted = blocks.some(({ code }) => files.get(path)!.includes(code));
      expect(quoted, `${path} is never quoted`).to.equal(true);
    }
  });

  it('gives the line count of each source file of the example, and their total, as they are', () => {
    const rows = new Map([...DOC.matchAll(/^\| `(src\/[\w./-]+)` \| (\d+) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    const actual = new Map([...files].filter(([path]) => path.startsWith('src/')).map(([path, text]) => [path, lineCount(text)]));
    expect(Object.fromEntries(rows)).to.deep.equal(Object.fromEntries(actual));
    const total = /^\| \*\*Total\*\* \| \*\*(\d+)\*\* \|/m.exec(DOC)?.[1];
    expect(Number(total)).to.equal([...actual.values()].reduce((a, b) => a + b, 0));
  });
});
