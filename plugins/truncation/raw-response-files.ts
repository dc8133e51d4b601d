import { nodeCrypto } from '../../core/node-crypto.js';
import { closeSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryHighSurrogate } from '../../core/artifacts/utf8-chunks.js';
import { newOwnerOnlyFile, newOwnerOnlyFileNow } from '../../core/files/new-owner-only-file.js';
import type { Logger } from '../../core/logging/logger.js';

const FILE_PATTERN = /^raw-\d+-[0-9a-f]{16}\.txt$/;

/**
 * Full renderings of truncated results, kept on disk for the retention period only: owner-only files in an
 * owner-only folder, deleted by a sweep. Written only when text is actually cut. The folder usually sits in a
 * shared /tmp, where another user may have made it first (open to all) or planted a symbolic link by that
 * name: such a folder is never written to; a private one made for this process (mkdtemp) is used instead.
 */
export class RawResponseFiles {
  private timer: NodeJS.Timeout | undefined;
  /** Drawn at the first file, not at start-up: node:crypto is loaded on first use (test/e2e/startup-modules). */
  private sequence: bigint | undefined;

  constructor(
    private dir: string,
    private readonly retentionMs: number,
    private readonly logger: Logger,
    private readonly now: () => number,
    /** Who must own the folder: this process's user (tests pretend to be another). */
    private readonly owner: number | undefined = process.getuid?.(),
  ) {}

  /** Where files are written now: the configured folder, or the private one used instead of it. */
  get folder(): string {
    return this.dir;
  }

  async start(): Promise<void> {
    await this.ensureDir();
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), Math.min(this.retentionMs, 10 * 60_000));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Saves the text; returns its path, or undefined (logged) when it could not be written. */
  async save(text: string): Promise<string | undefined> {
    if (text.length > SYNC_WRITE_CHARS) {
      // Through the thread pool a buffer at a time, as a rendering made as it is written is.
      const writer = await this.open();
      await writer?.write(text);
      return writer?.close();
    }
    const path = this.newPath();
    try {
      await this.writeNow(path, text);
      return path;
    } catch (error) {
      this.logger.warn({ err: error, dir: this.dir }, 'could not save the full text of a truncated result');
      return undefined;
    }
  }

  /**
   * A new file to write a text into piece by piece (a rendering made as it is written); undefined (logged)
   * when it could not be made. A write that fails later is logged, the file removed, and `close` says undefined.
   * `now`: written in this tick, a piece at a time, as `save` writes a moderate text: for a rendering already
   * made (whose making held the event loop anyway); one made as it is written (a big value's JSON) goes through
   * the thread pool, which lets the loop go between writes. (Through the pool, a 1 MiB page's TOON took 1.2x the
   * whole text's time, its pieces each a Buffer of their own.)
   */
  async open(now = false): Promise<RawFileWriter | undefined> {
    const path = this.newPath();
    const warn = (error: unknown): void => this.logger.warn({ err: error, dir: this.dir }, 'could not save the full text of a truncated result');
    try {
      if (now) return new PieceWriterNow(await newOwnerOnlyFileNow(path, () => this.ensureDir()), path, warn);
      return new PieceWriter(await this.create(path), path, warn);
    } catch (error) {
      this.logger.warn({ err: error, dir: this.dir }, 'could not save the full text of a truncated result');
      return undefined;
    }
  }

  /**
   * A file's name: the time, then a 64-bit counter from a random start, as 16 hex digits. Names need only be
   * unique, not unguessable: the folder is this user's alone (checked in ensureDir) and a file is never opened
   * unless new (`wx`). Workers sharing the folder start their counters apart at random. A random draw for every
   * file took 8 us here, about 1 % of the server's CPU for a workflow-runs call.
   */
  private newPath(): string {
    this.sequence = BigInt.asUintN(64, (this.sequence ?? nodeCrypto().randomBytes(8).readBigUInt64BE()) + 1n);
    return join(this.dir, `raw-${this.now()}-${this.sequence.toString(16).padStart(16, '0')}.txt`);
  }

  /** A new owner-only file at `path`; the folder is made at start-up, and again only if it has gone since. */
  private create(path: string): Promise<FileHandle> {
    return newOwnerOnlyFile(
      () => path,
      () => this.ensureDir(),
    );
  }

  /**
   * A text of moderate size written in this tick: open, write and close each went through libuv's thread pool
   * (0.7-0.9 ms for a 100 KB text on this machine, most of the truncate stage), where the system calls
   * themselves take a small part of that. The file is whole before the path is returned.
   */
  private async writeNow(path: string, text: string): Promise<void> {
    const fd = await newOwnerOnlyFileNow(path, () => this.ensureDir());
    try {
      writeUtf8Now(fd, text);
    } finally {
      closeSync(fd);
    }
  }

  /** Deletes saved files older than the retention period. */
  async sweep(): Promise<number> {
    let removed = 0;
    try {
      for (const name of await readdir(this.dir)) {
        if (!FILE_PATTERN.test(name)) continue;
        const path = join(this.dir, name);
        const info = await stat(path).catch(() => undefined);
        if (info && this.now() - info.mtimeMs >= this.retentionMs) {
          await unlink(path).catch(() => {});
          removed++;
        }
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'raw response sweep skipped');
    }
    return removed;
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const problem = await this.notPrivate();
    if (problem === undefined) return;
    const own = await mkdtemp(join(tmpdir(), 'mcp-devtools-raw-'));
    this.logger.warn(
      { dir: this.dir, problem, using: own },
      'MCP_RAW_RESPONSE_DIR is not a private folder of this user; the full text of truncated results goes to a private folder instead',
    );
    this.dir = own;
  }

  /** Why the folder is not safe to write into, or undefined when it is a real folder of ours, for us alone. */
  private async notPrivate(): Promise<string | undefined> {
    let info = await lstat(this.dir);
    if (info.isSymbolicLink()) return 'it is a symbolic link';
    if (!info.isDirectory()) return 'it is not a folder';
    if (this.owner !== undefined && info.uid !== this.owner) return `it belongs to another user (uid ${info.uid})`;
    if ((info.mode & 0o077) !== 0) {
      await chmod(this.dir, 0o700);
      info = await lstat(this.dir);
      if ((info.mode & 0o077) !== 0) return 'other users can open it';
    }
    return undefined;
  }
}

/**
 * Texts up to this many characters (at most 1.5 MiB of UTF-8) are written synchronously; longer ones through
 * the thread pool a buffer at a time (PieceWriter), so the event loop is never held by a big write.
 */
export const SYNC_WRITE_CHARS = 512 * 1024;

/**
 * Where writeUtf8Now encodes: one buffer for the process, as each write is done before the next can start.
 * The whole text's UTF-8 made at once (Buffer.from) was a new allocation of its size for every call, over the
 * size the allocator keeps at hand, so fresh pages from the system each time (on the 440 KB workflow-runs
 * rendering, about 75 page faults a call).
 */
const SCRATCH = Buffer.allocUnsafe(64 * 1024);
const ENCODER = new TextEncoder();

/** `text` as UTF-8 to `fd`, in this tick, the same bytes as Buffer.from(text, 'utf8'), a buffer's worth at a time. */
function writeUtf8Now(fd: number, text: string): void {
  const out = new Utf8WritesNow(fd, SCRATCH);
  out.add(text);
  out.flush();
}

/**
 * The UTF-8 of texts gathered in `buffer`, each text from where the last stopped: the same bytes as Buffer.from
 * gives for their concatenation, with no buffer of their own (encodeInto never splits a surrogate pair, and
 * writes a lone surrogate as U+FFFD, as Buffer.from does). Whoever holds it empties it when it is full.
 */
class Utf8Gathered {
  filled = 0;

  constructor(readonly buffer: Buffer) {}

  /** Encodes what of `text` from character `from` fits; where it stopped (text.length when it all fit). */
  put(text: string, from: number): number {
    const done = ENCODER.encodeInto(from === 0 ? text : text.slice(from), this.buffer.subarray(this.filled));
    this.filled += done.written;
    return from + done.read;
  }
}

/** The UTF-8 of texts gathered in a buffer and written to `fd` in this tick. */
class Utf8WritesNow extends Utf8Gathered {
  constructor(
    private readonly fd: number,
    buffer: Buffer,
  ) {
    super(buffer);
  }

  /** Adds `text`, writing the buffer whenever it is full. */
  add(text: string): void {
    for (let read = 0; (read = this.put(text, read)) < text.length;) this.flush();
  }

  /** Writes what is gathered, however many writes that takes. */
  flush(): void {
    for (let written = 0; written < this.filled;) written += writeSync(this.fd, this.buffer, written, this.filled - written);
    this.filled = 0;
  }
}

/** A text written to a raw response file piece by piece. */
export interface RawFileWriter {
  /** One piece at a time: each write is awaited before the next is given. */
  write(piece: string): Promise<void>;
  /** Flushes and closes the file: its path, or undefined when a write failed (the file is gone then). */
  close(): Promise<string | undefined>;
  /** Closes and removes the file: what was written must not be kept. */
  discard(): Promise<void>;
}

/**
 * A writer given a text in pieces: a high surrogate that ends one is held back and encoded with the low one that
 * starts the next, so that a pair split between two pieces is written whole, not as two replacement characters.
 */
abstract class PairKeepingWriter {
  private carried = '';
  protected failed = false;

  async write(piece: string): Promise<void> {
    if (this.failed) return;
    let text: string;
    ({ text, carried: this.carried } = carryHighSurrogate(this.carried, piece));
    await this.accept(text);
  }

  /** What was held back at the end: a lone high surrogate, written as U+FFFD, as Buffer.from writes it. */
  protected takeCarried(): string {
    const carried = this.carried;
    this.carried = '';
    return carried;
  }

  protected abstract accept(text: string): void | Promise<void>;
}

/**
 * A rendering already made, written piece by piece in this tick (writeNow's way). The pieces are encoded into a
 * buffer of this writer's own (a call's writes can interleave with another's between pieces) and written a
 * buffer at a time: a system call per 16 KB piece made the writes half as costly again.
 */
class PieceWriterNow extends PairKeepingWriter implements RawFileWriter {
  private closed = false;
  private readonly out: Utf8WritesNow;

  constructor(
    private readonly fd: number,
    private readonly path: string,
    private readonly warn: (error: unknown) => void,
  ) {
    super();
    this.out = new Utf8WritesNow(fd, Buffer.allocUnsafe(SCRATCH.length));
  }

  protected accept(text: string): void {
    this.put(text);
  }

  async close(): Promise<string | undefined> {
    const last = this.takeCarried();
    if (!this.failed && last !== '') this.put(last);
    if (this.failed) return undefined;
    try {
      this.out.flush();
      this.closeNow();
      return this.path;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  async discard(): Promise<void> {
    this.failed = true;
    try {
      this.closeNow();
    } catch {
      // already closed, or the disk is gone: the file is removed all the same
    }
    try {
      unlinkSync(this.path);
    } catch {
      // gone already
    }
  }

  private put(text: string): void {
    try {
      this.out.add(text);
    } catch (error) {
      this.fail(error);
    }
  }

  private closeNow(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private fail(error: unknown): void {
    this.warn(error);
    void this.discard();
  }
}

/** Bytes gathered before they are written: few system calls, and never the whole text's UTF-8 at once. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * A rendering made as it is written, through the thread pool. Its pieces are encoded into one buffer of this
 * writer's own, written once full and reused once written: a buffer for each piece (Buffer.from) was garbage
 * outside the heap that only a collection frees, and those of a 16 MiB value's rendering piled up to 24 MiB
 * (process.memoryUsage().arrayBuffers) beside the value. The allocator reused most of their memory, so the
 * resident peak did not move with them; the collector's reckoning of external memory did.
 */
class PieceWriter extends PairKeepingWriter implements RawFileWriter {
  private readonly out = new Utf8Gathered(Buffer.allocUnsafe(WRITE_BATCH_BYTES));

  constructor(
    private readonly file: FileHandle,
    private readonly path: string,
    private readonly warn: (error: unknown) => void,
  ) {
    super();
  }

  protected async accept(text: string): Promise<void> {
    for (let read = 0; (read = this.out.put(text, read)) < text.length;) await this.flush();
  }

  async close(): Promise<string | undefined> {
    const last = this.takeCarried();
    if (last !== '') await this.accept(last);
    await this.flush();
    if (this.failed) return undefined;
    try {
      await this.file.close();
      return this.path;
    } catch (error) {
      await this.fail(error);
      return undefined;
    }
  }

  async discard(): Promise<void> {
    this.out.filled = 0;
    await this.file.close().catch(() => {});
    await unlink(this.path).catch(() => {});
    this.failed = true;
  }

  /** Writes what is gathered (a short write, as on a full disk, goes on from where it stopped). */
  private async flush(): Promise<void> {
    const filled = this.out.filled;
    this.out.filled = 0;
    if (this.failed || filled === 0) return;
    try {
      for (let written = 0; written < filled;) written += (await this.file.write(this.out.buffer, written, filled - written)).bytesWritten;
    } catch (error) {
      await this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<void> {
    this.warn(error);
    await this.discard();
  }
}
