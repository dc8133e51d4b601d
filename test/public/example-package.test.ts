import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

/** The example packages a third-party author copies from: each depends on mcp-devtools like any user. */
const EXAMPLES = ['examples/plugin-gitlab', 'examples/plugin-sentry', 'examples/plugin-linear'];

/** Every module specifier a TypeScript file imports or re-exports. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

for (const example of EXAMPLES) {
  const EXAMPLE = join(REPO_ROOT, example);

  describe(`${example} depends on mcp-devtools only through the public API`, () => {
    const pkg = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };

    it('is a package of its own that depends on mcp-devtools', () => {
      expect(pkg.dependencies).to.deep.equal({ 'mcp-devtools': 'file:../..' });
    });

    it('imports only mcp-devtools/plugin in its sources', () => {
      const imported = tsFiles(join(EXAMPLE, 'src'))
        .flatMap(specifiers)
        .filter((s) => !s.startsWith('./'));
      expect([...new Set(imported)]).to.deep.equal(['mcp-devtools/plugin']);
    });

    it('imports only the public entry points, node: modules and its declared dev dependencies in its tests', () => {
      const allowed = new Set(['mcp-devtools/plugin', 'mcp-devtools/testing', ...Object.keys(pkg.devDependencies)]);
      for (const file of tsFiles(join(EXAMPLE, 'test'))) {
        for (const s of specifiers(file)) {
          const ok = s.startsWith('./') || s.startsWith('../') || s.startsWith('node:') || allowed.has(s);
          expect(ok, `${file} imports ${s}`).to.equal(true);
        }
      }
    });
  });
}
