import { open, readFile, rename, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { StartupError } from '../../../core/errors/tool-error.js';
import { GENESIS, recordHash, type AuditRecord } from './audit-record.js';
import { chainPathOf } from './audit-writers.js';

/** The head of a log: its last record's number and hash, kept beside it so a cut tail is detected. */
export interface AuditHead {
  seq: number;
  hash: string;
}

export function headPathOf(logPath: string): string {
  return `${logPath}.head`;
}

const TAIL_BYTES = 1024 * 1024;

/**
 * One writer's chain of the append-only JSON Lines audit log. Records are written one at a time, in order,
 * each chained to the previous by its hash; after each, the chain's head file (`<chain>.head`) is replaced
 * atomically with the new head. A restarted server continues the chain from the last record in the file. One
 * process per chain: a single server writes the log itself, each `--workers` worker (and each replica given
 * MCP_AUDIT_WRITER) its own `<log>.<writer>`, so no two processes ever append to one chain.
 */
export class AuditLog {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    /** MCP_AUDIT_LOG: the log every writer's chain is named after (what `audit verify` and the console read). */
    readonly logPath: string,
    /** This process's writer name; '' when it writes the log itself. */
    readonly writer: string,
    /** The file this process appends to. */
    readonly path: string,
    private readonly handle: FileHandle,
    private head: AuditHead,
  ) {}

  static async open(logPath: string, writer = ''): Promise<AuditLog> {
    const path = chainPathOf(logPath, writer);
    const setting = writer === '' ? `MCP_AUDIT_LOG=${path}` : `MCP_AUDIT_LOG=${logPath} (writer ${writer}: ${path})`;
    let handle: FileHandle;
    try {
      handle = await open(path, 'a', 0o600);
    } catch (error) {
      throw new StartupError(`${setting} cannot be opened for appending: ${(error as Error).message}`);
    }
    const { head, endsWithNewline } = await readHead(path);
    const recorded = await readHeadFile(path);
    // Appending, or writing a fresh head, would overwrite the evidence: refuse, and let an operator look first.
    const refuse = async (what: string): Promise<never> => {
      await handle.close();
      throw new StartupError(
        `${setting}: ${what}. Run \`mcp-devtools audit verify ${logPath}\`, then move the chain and its head file aside to start a new one.`,
      );
    };
    if (recorded.kind === 'head' && (head.seq < recorded.head.seq || (head.seq === recorded.head.seq && head.hash !== recorded.head.hash))) {
      await refuse(`the log ends at record ${head.seq}, but ${headPathOf(path)} says record ${recorded.head.seq} was written: the log was cut or edited`);
    }
    if (recorded.kind === 'missing' && head.seq > 0)
      await refuse(`the log has records, but ${headPathOf(path)} is missing: it was deleted, so a cut end could not be detected any more`);
    if (recorded.kind === 'invalid') await refuse(`${headPathOf(path)} cannot be read (${recorded.problem})`);
    // A crash mid-write leaves a partial line; end it so the next record starts on its own line (verify reports it).
    if (!endsWithNewline) await handle.write('\n');
    return new AuditLog(logPath, writer, path, handle, head);
  }

  /** Seals and appends a record; resolves once it is written. Records keep the order of the calls to append. */
  append(entry: Omit<AuditRecord, 'seq' | 'prev' | 'hash'>): Promise<AuditRecord> {
    const write = this.queue.then(async () => {
      const unsealed = { seq: this.head.seq + 1, ...entry, prev: this.head.hash };
      const record: AuditRecord = { ...unsealed, hash: recordHash(unsealed) };
      await this.handle.write(`${JSON.stringify(record)}\n`);
      this.head = { seq: record.seq, hash: record.hash };
      const temp = `${headPathOf(this.path)}.tmp`;
      await writeFile(temp, `${JSON.stringify(this.head)}\n`, { mode: 0o600 });
      await rename(temp, headPathOf(this.path));
      return record;
    });
    this.queue = write.catch(() => {});
    return write;
  }

  get current(): AuditHead {
    return this.head;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }
}

/** The last complete record of an existing log (read from its tail only), or the genesis head. */
async function readHead(path: string): Promise<{ head: AuditHead; endsWithNewline: boolean }> {
  const size = (await stat(path)).size;
  if (size === 0) return { head: { seq: 0, hash: GENESIS }, endsWithNewline: true };
  const handle = await open(path, 'r');
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    for (let i = lines.length - 1; i >= 0; i--) {
      try {
        const record = JSON.parse(lines[i]!) as AuditRecord;
        if (typeof record.seq === 'number' && typeof record.hash === 'string')
          return { head: { seq: record.seq, hash: record.hash }, endsWithNewline: text.endsWith('\n') };
      } catch {
        // a partial last line: look further back
      }
    }
    return { head: { seq: 0, hash: GENESIS }, endsWithNewline: text.endsWith('\n') };
  } finally {
    await handle.close();
  }
}

export type HeadFile = { kind: 'head'; head: AuditHead } | { kind: 'missing' } | { kind: 'invalid'; problem: string };

/** The head file beside a log: its head, or that there is none, or why it cannot be read. */
export async function readHeadFile(logPath: string): Promise<HeadFile> {
  let text: string;
  try {
    text = await readFile(headPathOf(logPath), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', problem: (error as Error).message };
  }
  try {
    const head = JSON.parse(text) as AuditHead;
    if (Number.isInteger(head.seq) && typeof head.hash === 'string' && /^[0-9a-f]{64}$/.test(head.hash)) return { kind: 'head', head };
  } catch {
    // reported below
  }
  return { kind: 'invalid', problem: 'it is not {"seq": N, "hash": "<64 hex>"}' };
}
