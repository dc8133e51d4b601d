// What README's first line installs: `npm ci` brings what building and serving need, and nothing the tests alone
// use; those (the test runner, reference servers and API descriptions, conformance suites, lint and mutation
// tools) are the test package's (test/package.json), which `npm test` installs into test/node_modules first.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT, TEST_MODULES } from '../support/paths.js';

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
}
type Lock = { packages: Record<string, { version?: string; dev?: boolean }> };

const json = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const root = json<PackageJson>(join(REPO_ROOT, 'package.json'));
const tests = json<PackageJson>(join(REPO_ROOT, 'test/package.json'));

/** Every file below `dir` whose name ends with one of `endings`, node_modules left out. */
function sources(dir: string, endings: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sources(path, endings);
    return endings.some((e) => name.endsWith(e)) ? [path] : [];
  });
}

/** The names a package's bin field gives its commands. */
function binsOf(name: string): string[] {
  const { bin } = json<PackageJson>(join(TEST_MODULES, name, 'package.json'));
  if (bin === undefined) return [];
  return typeof bin === 'string' ? [name.split('/').at(-1)!] : Object.keys(bin);
}

describe('what `npm ci` installs: building and serving, nothing only the tests use', () => {
  it('every dev dependency is for the build: rollup, what its configuration imports, the TypeScript compile and its types', () => {
    const config = readFileSync(join(REPO_ROOT, 'rollup.config.mjs'), 'utf8');
    const imported = [...config.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]!).filter((s) => !s.startsWith('node:'));
    const typescriptPlugin = json<PackageJson>(join(REPO_ROOT, 'node_modules/@rollup/plugin-typescript/package.json'));
    const forTheBuild = new Set(['rollup', ...imported, ...Object.keys(typescriptPlugin.peerDependencies ?? {})]);
    const typesOfWhatShips = (name: string): boolean => {
      const typed = name.replace(/^@types\//, '');
      return name.startsWith('@types/') && (typed === 'node' || root.dependencies![typed] !== undefined);
    };
    const other = Object.keys(root.devDependencies!).filter((name) => !forTheBuild.has(name) && !typesOfWhatShips(name));
    expect(other, 'dev dependencies that building does not use: move them to test/package.json').to.deep.equal([]);
    expect(root.scripts!.build).to.match(/\brollup -c\b/);
  });

  it('every package of the test package is used: imported by a test or a tool configuration, or its command run by a script', () => {
    const texts = [
      ...sources(join(REPO_ROOT, 'test'), ['.ts', '.mjs', '.cjs']),
      join(REPO_ROOT, 'stryker.config.json'),
      join(REPO_ROOT, 'package.json'),
      ...readdirSync(join(REPO_ROOT, '.ci')).map((f) => join(REPO_ROOT, '.ci', f)),
    ].map((file) => readFileSync(file, 'utf8'));
    const all = texts.join('\n');
    const named = (name: string): boolean => [`'${name}'`, `'${name}/`, `\`${name}/`, `"${name}/`].some((form) => all.includes(form));
    const run = (name: string): boolean => binsOf(name).some((bin) => all.includes(`node_modules/.bin/${bin} `) || all.includes(`${name}/bin/${bin}`));
    // Stryker loads the test runner its configuration names as a plugin of its own.
    const strykerRunner = `@stryker-mutator/${json<{ testRunner: string }>(join(REPO_ROOT, 'stryker.config.json')).testRunner}-runner`;
    const used = (name: string): boolean => {
      if (name === strykerRunner) return true;
      if (!name.startsWith('@types/')) return named(name) || run(name);
      const typed = name.slice('@types/'.length);
      return typed === 'mocha' || named(typed);
    };
    expect(Object.keys(tests.dependencies!).filter((name) => !used(name))).to.deep.equal([]);
  });

  it("the test package's copy of a package the server runs with is the same version: tests and server share its behaviour", () => {
    const topLevel = (lock: Lock, runtimeOnly: boolean): Map<string, string> =>
      new Map(
        Object.entries(lock.packages)
          .filter(([path]) => path.startsWith('node_modules/') && !path.slice('node_modules/'.length).includes('node_modules/'))
          .filter(([, p]) => !runtimeOnly || p.dev !== true)
          .map(([path, p]) => [path.slice('node_modules/'.length), p.version!]),
      );
    const ours = topLevel(json<Lock>(join(REPO_ROOT, 'package-lock.json')), true);
    const theirs = topLevel(json<Lock>(join(REPO_ROOT, 'test/package-lock.json')), false);
    // The packages the tests load themselves: a copy of one in test/node_modules is what a test compares the
    // server's behaviour with. Others that both installs hold (a transitive content-type) never meet.
    const testSources = sources(join(REPO_ROOT, 'test'), ['.ts']).map((file) => readFileSync(file, 'utf8'));
    const importedByTests = new Set(
      testSources.flatMap((text) => [...text.matchAll(/(?:from |import\()'((?:@[^/'.][^/']*\/)?[^/'.][^/']*)/g)].map((m) => m[1]!)),
    );
    const both = [...theirs.keys()].filter((name) => ours.has(name) && importedByTests.has(name));
    expect(both.length, 'packages both install').to.be.greaterThan(0);
    expect(both.filter((name) => ours.get(name) !== theirs.get(name)).map((name) => `${name}: ${ours.get(name)} and ${theirs.get(name)}`)).to.deep.equal([]);
  });

  it('the compiled tests find the test package (build/test/node_modules), and the server code the repository’s packages', () => {
    const fromTests = createRequire(import.meta.url);
    expect(realpathSync(fromTests.resolve('mocha'))).to.satisfy((path: string) => path.startsWith(realpathSync(TEST_MODULES)));
    const fromServer = createRequire(join(REPO_ROOT, 'build/server/cli.js'));
    expect(fromServer.resolve('undici')).to.satisfy((path: string) => path.startsWith(join(REPO_ROOT, 'node_modules')));
    expect(() => fromServer.resolve('mocha'), 'server code must not reach the test package').to.throw(/Cannot find module/);
  });
});
