import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Where a doc names this package's version: a packed tarball, an image tag, `--version`'s answer, the build_info metric. */
const MENTIONS = [
  /mcp-devtools-(\d+\.\d+\.\d+[\w.-]*)\.tgz/g,
  /mcp-devtools:(\d+\.\d+\.\d+[\w.-]*)/g,
  /mcp-devtools --version\s+# (\S+)/g,
  /mcp_devtools_build_info\{version="([^"]+)"\}/g,
];

const DOCS = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('version strings in README and docs', () => {
  it(`name the version package.json gives (${VERSION}) wherever they name this package's version`, () => {
    const found: string[] = [];
    for (const doc of DOCS) {
      const text = readFileSync(join(REPO_ROOT, doc), 'utf8');
      for (const pattern of MENTIONS) for (const m of text.matchAll(pattern)) found.push(`${doc}: ${m[0]}`);
    }
    expect(found.filter((f) => f.includes('README.md')).length, 'README names the version in its install section').to.be.greaterThan(0);
    expect(found.filter((f) => !f.includes(VERSION))).to.deep.equal([]);
  });
});
