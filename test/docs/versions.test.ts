// Version strings that are written down in more than one place come from one: the package's version from
// package.json, the Node.js versions from its `engines`, the examples' lockfiles from their package.json and the
// package they depend on. A test fails the moment one of them is left behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { OLDEST_SUPPORTED_NODE } from '../../server/cli/runtime-support.js';
import { docsFiles } from '../support/markdown.js';
import { REPO_ROOT } from '../support/paths.js';

interface PackageJson {
  name: string;
  version: string;
  license?: string;
  engines?: Record<string, string>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');
const json = <T>(file: string): T => JSON.parse(read(file)) as T;
const root = json<PackageJson>('package.json');

/** Where the package's own version is written: tarballs, image tags, npm specs, `--version`, metrics, serverInfo. */
const VERSION_MENTIONS = [
  /\bmcp-devtools-(\d+\.\d+\.\d+[\w.-]*?)\.tgz/g,
  /\bmcp-devtools:(\d+\.\d+\.\d+[\w.-]*)/g,
  /\bmcp-devtools@(\d+\.\d+\.\d+[\w.-]*)/g,
  /mcp-devtools --version\s+#\s*(\S+)/g,
  /mcp_devtools_build_info\{version="([^"]+)"\}/g,
  /"name":\s*"mcp-devtools",\s*"version":\s*"([^"]+)"/g,
];

export function versionMentions(text: string): string[] {
  return VERSION_MENTIONS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

/** The files a reader or an operator copies version strings from (the changelog keeps its history). */
function filesWithVersions(): string[] {
  const examples = readdirSync(join(REPO_ROOT, 'examples')).map((e) => `examples/${e}/README.md`);
  const kubernetes = readdirSync(join(REPO_ROOT, 'deploy/kubernetes')).map((f) => `deploy/kubernetes/${f}`);
  return ['README.md', ...docsFiles(), ...examples, ...kubernetes, 'compose.yaml', 'Dockerfile'].filter((f) => existsSync(join(REPO_ROOT, f)));
}

const examples = readdirSync(join(REPO_ROOT, 'examples')).filter((e) => existsSync(join(REPO_ROOT, 'examples', e, 'package.json')));

describe('version strings come from package.json', () => {
  it('finds the version wherever it is written as one (tarball, image tag, --version, metrics, serverInfo)', () => {
    expect(versionMentions('npm install -g ./mcp-devtools-0.1.0.tgz; docker build -t mcp-devtools:0.1.0 .')).to.deep.equal(['0.1.0', '0.1.0']);
    expect(versionMentions('mcp-devtools --version     # 1.2.3\nmcp_devtools_build_info{version="1.2.3"} 1')).to.deep.equal(['1.2.3', '1.2.3']);
  });

  it("README.md, docs/, the examples' READMEs and the deployment files write the package's version as package.json has it", () => {
    const found = filesWithVersions().flatMap((file) => versionMentions(read(file)).map((version) => ({ file, version })));
    expect(found.map((f) => f.file)).to.include.members(['README.md', 'docs/deployment.md', 'deploy/kubernetes/mcp-devtools.yaml']);
    expect(found.filter((f) => f.version !== root.version)).to.deep.equal([]);
  });

  it('the server says the version package.json has', () => {
    expect(read('core/version.ts')).to.contain(`export const VERSION = '${root.version}';`);
  });
});

describe('Node.js versions come from `engines`', () => {
  const oldest = Number(/^>=(\d+)$/.exec(root.engines!.node!)?.[1]);

  it('engines names the oldest Node.js the server supports, which the start-up notice uses', () => {
    expect(oldest).to.equal(OLDEST_SUPPORTED_NODE);
  });

  it("every example's engines is the package's", () => {
    for (const example of examples) expect(json<PackageJson>(`examples/${example}/package.json`).engines, example).to.deep.equal(root.engines);
  });

  it('docs/plugins.md asks for the Node.js that engines requires', () => {
    const [, needed] = /You need Node(?:\.js)? (\d+)/.exec(read('docs/plugins.md')) ?? [];
    expect(Number(needed)).to.equal(oldest);
  });
});

describe("the examples' lockfiles are current (`npm ci`, which CI runs in each, installs exactly them)", () => {
  it('CI runs `npm ci` and the tests in every example', () => {
    const ci = read('.ci/run');
    const loop = /^for example in examples\/\*\/; do\n([\s\S]*?)^done$/m.exec(ci)?.[1] ?? '';
    expect(loop, '.ci/run has no loop over examples/*/').to.contain('npm ci').and.to.contain('npm test');
    for (const example of examples) expect(json<PackageJson>(`examples/${example}/package.json`).scripts?.test, example).to.be.a('string');
  });

  for (const example of examples) {
    it(`examples/${example}: the lockfile records its package.json and, for the package it links, that package as it is`, () => {
      const own = json<PackageJson>(`examples/${example}/package.json`);
      const lock = json<{ packages: Record<string, PackageJson & { link?: boolean; resolved?: string }> }>(`examples/${example}/package-lock.json`);
      const top = lock.packages['']!;
      expect({ dependencies: top.dependencies, devDependencies: top.devDependencies, engines: top.engines }).to.deep.equal({
        dependencies: own.dependencies,
        devDependencies: own.devDependencies,
        engines: own.engines,
      });
      if (own.dependencies?.['mcp-devtools'] !== 'file:../..') return;
      expect(lock.packages['node_modules/mcp-devtools']).to.deep.include({ resolved: '../..', link: true });
      const linked = lock.packages['../..']!;
      const pick = (p: PackageJson) => ({
        name: p.name,
        version: p.version,
        engines: p.engines,
        bin: p.bin,
        dependencies: p.dependencies,
        devDependencies: p.devDependencies,
      });
      expect(pick(linked)).to.deep.equal(pick(root));
    });
  }
});
