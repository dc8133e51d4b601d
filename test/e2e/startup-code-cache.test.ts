// The start-up chunk's compiled code cache (rollup/startup-code-cache.mjs, dist/chunks/code-cache.js): the first
// start writes it beside the start-up code, later starts use it, and a cache that is damaged or made by another
// V8 only costs time. Each test runs a copy of dist/ of its own, so that no other test's start has written the
// cache first.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';
import { connectStdio } from '../support/sdk-client.js';

/** A copy of the built package: dist/ without any cache, its package.json, the repository's dependencies. */
function copyOfDist(): { cli: string; chunks: string } {
  const root = mkdtempSync(join(tmpdir(), 'mcp-devtools-code-cache-'));
  cpSync(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.cache') });
  cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
  return { cli: join(root, 'dist', 'cli.js'), chunks: join(root, 'dist', 'chunks') };
}

/** The name a cache of the start-up code in `chunks` gets: after the code file, its modification time and V8. */
function cacheNameIn(chunks: string): string {
  const codeFile = readdirSync(chunks).find((name) => name.endsWith('.code.js'))!;
  const modified = Math.trunc(statSync(join(chunks, codeFile)).mtimeMs);
  return `${codeFile}.${process.versions.v8}-${process.arch}-${modified}.cache`;
}

const cachesIn = (chunks: string): string[] => readdirSync(chunks).filter((file) => file.endsWith('.cache'));

/** Starts the server, lists its tools, and waits until the process has exited (the cache is written at exit). */
async function listToolsOnce(cli: string, env: Record<string, string> = {}): Promise<string[]> {
  const session = await connectStdio({ cliPath: cli, env });
  try {
    const { tools } = await session.client.listTools();
    return tools.map((tool) => tool.name);
  } finally {
    await session.close();
  }
}

/** The cache file, once a server that exited has written it (the client's close may return before the exit). */
async function cacheWritten(chunks: string, differentFrom?: Buffer): Promise<{ file: string; bytes: Buffer; mtimeMs: number }> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const [file, ...others] = cachesIn(chunks).filter((name) => statSync(join(chunks, name)).isFile());
    expect(others).to.deep.equal([]);
    if (file !== undefined) {
      const bytes = readFileSync(join(chunks, file));
      if (bytes.length > 0 && (differentFrom === undefined || !bytes.equals(differentFrom))) {
        return { file, bytes, mtimeMs: statSync(join(chunks, file)).mtimeMs };
      }
    }
    await sleep(50);
  }
  throw new Error(`no code cache written in ${chunks}`);
}

describe('the start-up code cache (dist/cli.js over stdio)', () => {
  it('is written beside the start-up code by the first start and used, unchanged, by the next', async () => {
    const { cli, chunks } = copyOfDist();
    expect(cachesIn(chunks)).to.deep.equal([]);
    const first = await listToolsOnce(cli);
    const written = await cacheWritten(chunks);
    // Named after the code it was made from (its file and that file's modification time) and the V8 that made it.
    expect(written.file).to.equal(cacheNameIn(chunks));
    expect(written.bytes.length).to.be.greaterThan(100_000);

    const second = await listToolsOnce(cli);
    expect(second).to.deep.equal(first);
    expect(second.length).to.be.greaterThan(30);
    await sleep(200);
    // An accepted cache is not written again.
    expect(cachesIn(chunks)).to.deep.equal([written.file]);
    expect(statSync(join(chunks, written.file)).mtimeMs).to.equal(written.mtimeMs);
    expect(readFileSync(join(chunks, written.file)).equals(written.bytes)).to.equal(true);
  });

  it('serves as usual when the cache is damaged, and replaces it', async () => {
    const { cli, chunks } = copyOfDist();
    const reference = await listToolsOnce(cli);
    const { file } = await cacheWritten(chunks);
    const garbage = Buffer.from('not a V8 code cache, '.repeat(1000));
    writeFileSync(join(chunks, file), garbage);

    expect(await listToolsOnce(cli)).to.deep.equal(reference);
    const replaced = await cacheWritten(chunks, garbage);
    expect(replaced.file).to.equal(file);
    expect(replaced.bytes.length).to.be.greaterThan(100_000);
  });

  it('made by a one-shot command, is replaced by the first server, which compiles more of the code', async () => {
    const { cli, chunks } = copyOfDist();
    expect(execFileSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).trim()).to.match(/^\d+\.\d+\.\d+/);
    const short = await cacheWritten(chunks);

    await listToolsOnce(cli);
    const served = await cacheWritten(chunks, short.bytes);
    expect(served.file).to.equal(short.file);
    expect(served.bytes.length).to.be.greaterThan(short.bytes.length * 1.125);
  });

  it("goes to the user's own cache directory where it cannot be written beside the code", async () => {
    const { cli, chunks } = copyOfDist();
    const userCache = mkdtempSync(join(tmpdir(), 'mcp-devtools-xdg-cache-'));
    const env = { XDG_CACHE_HOME: userCache };
    // Beside the code, a directory where the cache would go: neither readable as a cache nor replaceable by one
    // (the tests run as root, for whom a read-only directory is writable all the same).
    const file = cacheNameIn(chunks);
    mkdirSync(join(chunks, file));

    const reference = await listToolsOnce(cli, env);
    expect(reference.length).to.be.greaterThan(30);
    const written = await cacheWritten(join(userCache, 'mcp-devtools'));
    expect(written.file).to.equal(file);
    expect(statSync(join(userCache, 'mcp-devtools')).mode & 0o777).to.equal(0o700);

    expect(await listToolsOnce(cli, env)).to.deep.equal(reference);
    await sleep(200);
    expect(statSync(join(userCache, 'mcp-devtools', file)).mtimeMs).to.equal(written.mtimeMs);
  });
});
