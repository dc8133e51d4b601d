import { readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/**
 * A writer's name: letters, digits, `_` and `-` (no dot, so `<log>.<writer>.head` is never taken for a writer),
 * and never `head`, which would be the log's own head file.
 */
export const WRITER_PATTERN = '^(?!head$)[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
const WRITER = new RegExp(WRITER_PATTERN);

/** One hash chain of an audit log: the log itself (writer '') or `<log>.<writer>`, each with its own head file. */
export interface AuditChain {
  writer: string;
  path: string;
}

/** Where `writer` appends: the log itself for the one writer of a single process, `<log>.<writer>` otherwise. */
export function chainPathOf(logPath: string, writer: string): string {
  return writer === '' ? logPath : `${logPath}.${writer}`;
}

/** How a chain is named in a report: the log itself by its path, a writer's chain by the writer and its path. */
export function chainLabel(chain: AuditChain): string {
  return chain.writer === '' ? chain.path : `writer ${chain.writer} (${chain.path})`;
}

/**
 * Every chain of a log, the log's own first, then by writer: found from the chain files and from their head
 * files, so a chain whose file was deleted while its head remains is still found (and fails verification).
 */
export async function findChains(logPath: string): Promise<AuditChain[]> {
  const name = basename(logPath);
  let entries: string[];
  try {
    entries = await readdir(dirname(logPath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const writers = new Set<string>();
  for (const entry of entries) {
    if (entry === name || entry === `${name}.head`) writers.add('');
    if (!entry.startsWith(`${name}.`)) continue;
    const rest = entry.slice(name.length + 1);
    const writer = rest.endsWith('.head') ? rest.slice(0, -'.head'.length) : rest;
    if (WRITER.test(writer)) writers.add(writer);
  }
  return [...writers]
    .sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en', { numeric: true })))
    .map((writer) => ({ writer, path: chainPathOf(logPath, writer) }));
}
