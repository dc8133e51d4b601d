import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { ARTIFACT_CHUNK_BYTES, ARTIFACT_CHUNK_NAMESPACE, artifactKey, ChunkedArtifactStore } from '../../../plugins/artifacts/chunked-artifact-store.js';
import { ArtifactFiles } from '../../../plugins/artifacts/artifact-files.js';
import type { ToolError } from '../../../core/errors/tool-error.js';
import type { Principal } from '../../../core/identity/principal.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { openStore } from '../../../core/store/open-store.js';

const alice: Principal = { subject: 'alice', groups: [], via: 'tokens' };
const bob: Principal = { subject: 'bob', groups: [], via: 'tokens' };
const RETENTION_MS = 300_000;

/** A 3 MiB JSON-like text with characters of every UTF-8 length, as a structured value spilled in pieces. */
function bigText(): string[] {
  const line = '{"key":"PROJ-1","summary":"ünïcödé 日本語 🚀 plain ascii text"},';
  return Array.from({ length: 48 }, () => line.repeat(Math.ceil((64 * 1024) / line.length)));
}

async function readAll(artifacts: ChunkedArtifactStore, owner: Principal, id: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = await artifacts.read(owner, id, offset, ARTIFACT_CHUNK_BYTES);
    parts.push(Buffer.from(chunk.data, 'base64'));
    ({ nextOffset: offset, eof } = chunk);
  }
  return Buffer.concat(parts);
}

async function notFound(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return (error as ToolError).message;
  }
  throw new Error('expected "not found"');
}

describe('big artifacts of the memory store live in owner-only files, not in the heap', () => {
  let store: KeyValueStore;
  let now: number;
  let files: ArtifactFiles;
  let artifacts: ChunkedArtifactStore;

  beforeEach(async () => {
    store = await openStore('memory://');
    now = Date.parse('2026-12-01T10:00:00.000Z');
    const clock = { now: () => now };
    files = new ArtifactFiles(clock, 3_600_000);
    artifacts = new ChunkedArtifactStore(store, clock, RETENTION_MS, files);
  });
  afterEach(async () => {
    await files.close();
    await store.close();
  });

  it('reads back byte for byte from a 0600 file in a 0700 folder, with no chunk in the store', async () => {
    const pieces = bigText();
    const saved = await artifacts.save(alice, 'application/json', pieces);
    const expected = Buffer.from(pieces.join(''), 'utf8');
    expect(saved.bytes).to.equal(expected.length);
    expect((await readAll(artifacts, alice, saved.artifactId)).equals(expected)).to.equal(true);
    expect(await store.get(ARTIFACT_CHUNK_NAMESPACE, `${artifactKey(alice, saved.artifactId)}:0`)).to.equal(undefined);
    const folder = files.path!;
    expect(statSync(folder).mode & 0o777).to.equal(0o700);
    const names = readdirSync(folder);
    expect(names).to.have.length(1);
    expect(statSync(join(folder, names[0]!)).mode & 0o777).to.equal(0o600);
    expect(statSync(join(folder, names[0]!)).size).to.equal(expected.length);
    expect(names[0]).not.to.include(saved.artifactId);
  });

  // Found by the benchmark's 64 clients spilling 16 MiB values at once: the first saves each made a folder, the
  // last one made was kept, and the artifacts saved into the others answered "not found".
  it('reads back every artifact of several saved at once before the folder existed, all in one folder', async () => {
    const pieces = bigText();
    const expected = Buffer.from(pieces.join(''), 'utf8');
    const saved = await Promise.all(Array.from({ length: 6 }, () => artifacts.save(alice, 'application/json', pieces)));
    for (const { artifactId } of saved) expect((await readAll(artifacts, alice, artifactId)).equals(expected), artifactId).to.equal(true);
    expect(readdirSync(files.path!)).to.have.length(6);
  });

  it('answers another principal "not found", as for chunks in the store', async () => {
    const saved = await artifacts.save(alice, 'application/json', bigText());
    expect(await notFound(artifacts.read(bob, saved.artifactId, 0, ARTIFACT_CHUNK_BYTES))).to.equal('Artifact not found or expired');
  });

  it('keeps small artifacts in the store', async () => {
    const saved = await artifacts.save(alice, 'text/plain', 'x'.repeat(100_000));
    expect(await store.get(ARTIFACT_CHUNK_NAMESPACE, `${artifactKey(alice, saved.artifactId)}:0`)).to.be.a('string');
    expect(files.path).to.equal(undefined);
    expect((await readAll(artifacts, alice, saved.artifactId)).toString()).to.equal('x'.repeat(100_000));
  });

  it('removes the file when the artifact expires: on the next read, or by the sweep without one', async () => {
    const read = await artifacts.save(alice, 'application/json', bigText());
    const unread = await artifacts.save(alice, 'application/json', bigText());
    expect(readdirSync(files.path!)).to.have.length(2);
    now += RETENTION_MS;
    expect(await notFound(artifacts.read(alice, read.artifactId, 0, 10))).to.equal('Artifact not found or expired');
    expect(readdirSync(files.path!)).to.have.length(1);
    expect(await files.sweep()).to.equal(1);
    expect(readdirSync(files.path!)).to.have.length(0);
    expect(await notFound(artifacts.read(alice, unread.artifactId, 0, 10))).to.equal('Artifact not found or expired');
  });

  it('answers "not found" when the folder was removed under the server, and saves again into a new one', async () => {
    const saved = await artifacts.save(alice, 'application/json', bigText());
    const first = files.path!;
    execFileSync('rm', ['-rf', first]);
    expect(await notFound(artifacts.read(alice, saved.artifactId, 0, 10))).to.equal('Artifact not found or expired');
    const again = await artifacts.save(alice, 'application/json', bigText());
    expect(files.path).not.to.equal(first);
    expect((await readAll(artifacts, alice, again.artifactId)).length).to.equal(again.bytes);
  });

  it('removes the folder when the process exits', () => {
    const module = pathToFileURL(join(import.meta.dirname, '../../../plugins/artifacts/artifact-files.js')).href;
    const temp = mkdtempSync(join(tmpdir(), 'mcp-devtools-exit-'));
    const script = `const { ArtifactFiles } = await import(${JSON.stringify(module)});
      const files = new ArtifactFiles({ now: () => Date.now() });
      const { file } = await files.create(Date.now() + 60000);
      await file.write(Buffer.from('secret-free bytes'));
      await file.close();
      console.log(files.path);
      process.exit(0);`;
    const folder = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: temp }, encoding: 'utf8' }).trim();
    expect(folder.startsWith(temp)).to.equal(true);
    expect(existsSync(folder)).to.equal(false);
    execFileSync('rm', ['-rf', temp]);
  });
});
