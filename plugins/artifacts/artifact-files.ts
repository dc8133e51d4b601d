import { nodeCrypto } from '../../core/node-crypto.js';
import { rmSync } from 'node:fs';
import { mkdtemp, open, rm, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newOwnerOnlyFile } from '../../core/files/new-owner-only-file.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { SWEEP_INTERVAL_MS } from '../../core/store/store-options.js';

const NAME_PATTERN = /^[0-9a-f]{32}\.bin$/;

/** Folders of every ArtifactFiles of this process, removed when it exits (one listener for all of them). */
const liveFolders = new Set<string>();
process.once('exit', () => {
  for (const folder of liveFolders) rmSync(folder, { recursive: true, force: true });
});

/**
 * Big artifacts of the in-memory store, kept in files instead of the V8 heap: a 16 MiB structured value held
 * as base64 strings cost 21 MiB of resident memory per artifact for the whole retention period, 1.3 GiB for 64
 * of them. The folder is this process's own (mkdtemp, 0700), each file 0600 and named by 128 random bits; the
 * name is written only into the artifact's metadata, which is keyed by its owner, so only that principal can
 * reach the bytes, as for chunks in the store. A file is removed when its artifact expires (a sweep on the
 * store's timer, or the first read after expiry), and the folder when the process exits. Files hold exactly the
 * bytes the store would have held, so nothing new is on disk beyond the artifact itself.
 */
export class ArtifactFiles {
  private folder: string | undefined;
  /** The folder being made: saves that start together wait for the one folder rather than each making one. */
  private making: Promise<string> | undefined;
  /** Each file's expiry and folder (a file stays where it was made when a vanished folder is made anew). */
  private readonly expiries = new Map<string, { expiresAt: number; folder: string }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly clock: Clock,
    sweepIntervalMs = SWEEP_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.sweep(), sweepIntervalMs);
    this.timer.unref();
  }

  /** A new owner-only file for an artifact that expires at `expiresAt`; the caller writes it and closes it. */
  async create(expiresAt: number): Promise<{ name: string; file: FileHandle }> {
    const name = `${nodeCrypto().randomBytes(16).toString('hex')}.bin`;
    let folder = '';
    // A folder removed under us (a tmp cleaner) is forgotten, so that a new private one is made.
    const file = await newOwnerOnlyFile(
      async () => join((folder = await this.ensureFolder()), name),
      () => this.forgetFolder(),
    );
    this.expiries.set(name, { expiresAt, folder });
    return { name, file };
  }

  /** `length` bytes from `position` of a file; undefined when it is unknown or gone. */
  async read(name: string, position: number, length: number): Promise<Buffer | undefined> {
    const known = NAME_PATTERN.test(name) ? this.expiries.get(name) : undefined;
    if (known === undefined) return undefined;
    let file: FileHandle;
    try {
      file = await open(join(known.folder, name), 'r');
    } catch {
      return undefined;
    }
    try {
      const data = Buffer.alloc(length);
      const { bytesRead } = await file.read(data, 0, length, position);
      return bytesRead === length ? data : undefined;
    } finally {
      await file.close();
    }
  }

  async remove(name: string): Promise<void> {
    const known = this.expiries.get(name);
    if (known === undefined) return;
    this.expiries.delete(name);
    await unlink(join(known.folder, name)).catch(() => {});
  }

  /** Removes the files of expired artifacts; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const expired = [...this.expiries].filter(([, { expiresAt }]) => expiresAt <= now).map(([name]) => name);
    for (const name of expired) await this.remove(name);
    return expired.length;
  }

  /** Removes every file and the folder (also done when the process exits). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.expiries.clear();
    const folder = this.folder;
    this.forgetFolder();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  }

  /** The folder, if made: for tests and diagnostics. */
  get path(): string | undefined {
    return this.folder;
  }

  private ensureFolder(): Promise<string> {
    if (this.making === undefined) {
      const making = mkdtemp(join(tmpdir(), 'mcp-devtools-artifacts-')).then((folder) => {
        // Removed at exit whatever happens; the current folder unless forgotten meanwhile (closed, or gone).
        liveFolders.add(folder);
        if (this.making === making) this.folder = folder;
        return folder;
      });
      // A failed mkdtemp is not kept: the next save tries again.
      making.catch(() => {
        if (this.making === making) this.making = undefined;
      });
      this.making = making;
    }
    return this.making;
  }

  private forgetFolder(): void {
    if (this.folder !== undefined) liveFolders.delete(this.folder);
    this.folder = undefined;
    this.making = undefined;
  }
}
