// The package as the registry would get it: `npm pack` holds what runs and nothing else, every module the
// bundle leaves external is a declared dependency, and what installs accepts every Node the engines field does.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import semver from 'semver';
import { packedFiles, stagePackage } from '../support/package-stage.js';
import { REPO_ROOT } from '../support/paths.js';

interface PackageJson {
  version: string;
  bin: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
}

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;

/**
 * The bare package names a built file loads: its static imports (rollup writes each on a line of its own),
 * dynamic imports with a literal name, and `createRequire(import.meta.url)('name')` (node: built-ins aside).
 * The start-up code run through the code cache (dist/chunks/startup-*.code.js) has the same as `__import(...)`
 * and `__importMeta`, handed in by its chunk.
 */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const patterns = [
    /^import\s+(?:[^'";]*?\s+from\s+)?'([^']+)';$/gm,
    /\b(?:__)?import\('([^']+)'\)/g,
    /createRequire\((?:import\.meta|__importMeta)\.url\)\('([^']+)'\)/g,
  ];
  return patterns
    .flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!))
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]!))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('the npm package', () => {
  let folder: string;
  let files: string[];

  before(async function () {
    this.timeout(120_000);
    folder = stagePackage();
    ({ files } = await packedFiles(folder));
  });

  it('holds the bundle, its declarations, the README and the licence: no sources, tests, fixtures or source maps', () => {
    const outside = files.filter((f) => !f.startsWith('dist/'));
    expect(outside.sort()).to.deep.equal(['LICENSE', 'README.md', 'package.json']);
    expect(files.filter((f) => !/\.(js|d\.ts)$/.test(f) && f.startsWith('dist/'))).to.deep.equal([]);
    expect(files).to.include.members(['dist/cli.js', 'dist/plugin.js', 'dist/plugin.d.ts', 'dist/testing.js', 'dist/testing.d.ts']);
    expect(files.some((f) => f.startsWith('dist/chunks/startup-'))).to.equal(true);
  });

  it('has a bin that exists in it and starts with a node shebang', () => {
    expect(pkg.bin).to.deep.equal({ 'mcp-devtools': 'dist/cli.js' });
    expect(files).to.include('dist/cli.js');
    expect(readFileSync(join(folder, 'dist/cli.js'), 'utf8').split('\n')[0]).to.equal('#!/usr/bin/env node');
  });

  it('declares as dependencies every package the built files load', () => {
    const built = files.filter((f) => f.endsWith('.js')).map((f) => join(folder, f));
    const needed = new Set(built.flatMap(importedPackages));
    expect(needed.size).to.be.greaterThan(3);
    const undeclared = [...needed].filter((name) => pkg.dependencies[name] === undefined);
    expect(undeclared, `loaded by dist/ but not in dependencies: ${undeclared.join(', ')}`).to.deep.equal([]);
  });

  describe('engines', () => {
    type Locked = { version?: string; dev?: boolean; optional?: boolean; engines?: { node?: string } | string[] };
    const lockedIn = (file: string): Array<[string, Locked]> => {
      const lock = JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as { packages: Record<string, Locked> };
      // Optional packages whose engines do not match are skipped by npm without a warning.
      return Object.entries(lock.packages).filter(
        ([path, p]) => path !== '' && !p.optional && !Array.isArray(p.engines) && typeof p.engines?.node === 'string',
      );
    };
    const locked = lockedIn('package-lock.json');
    const describe = ([path, p]: [string, Locked]): string =>
      `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`;

    it('accepts only Node versions on which every runtime dependency installs', () => {
      const refusing = locked.filter(([, p]) => !p.dev && !semver.subset(pkg.engines.node, (p.engines as { node: string }).node));
      expect(refusing.map(describe)).to.deep.equal([]);
    });

    it("gives no EBADENGINE warning on npm ci here, nor on the test package's: no dev or test dependency wants a newer Node than this one", () => {
      const refusing = [...locked, ...lockedIn('test/package-lock.json')].filter(
        ([, p]) => !semver.satisfies(process.version, (p.engines as { node: string }).node),
      );
      expect(refusing.map(describe)).to.deep.equal([]);
    });
  });
});
