import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { headPathOf, readHeadFile } from './audit-log.js';
import { GENESIS, recordHash, type AuditRecord } from './audit-record.js';
import { findChains, type AuditChain } from './audit-writers.js';

/** What verifying one writer's chain found. */
export interface ChainVerification extends AuditChain {
  ok: boolean;
  records: number;
  problems: string[];
  notes: string[];
}

export interface AuditVerification {
  ok: boolean;
  /** Records read, over every chain. */
  records: number;
  /** What is wrong, each naming its line, and its writer when the log has several; empty when every chain verifies. */
  problems: string[];
  /** Said when the log verifies but something limits what could be checked. */
  notes: string[];
  /** Each writer's chain: the log itself first, then `<log>.<writer>` by writer. */
  chains: ChainVerification[];
}

const MAX_PROBLEMS = 20;

/**
 * Checks every chain of an audit log (the log itself and each writer's `<log>.<writer>`, see AuditLog) end to
 * end, each on its own: one process appends to one chain, so each must be whole. A problem in a writer's chain
 * names the writer (`writer w2: line 5 (record 5): ...`). A log with no chain at all is an error (ENOENT), not
 * an empty success.
 */
export async function verifyAuditLog(logPath: string): Promise<AuditVerification> {
  const found = await findChains(logPath);
  if (found.length === 0) throw Object.assign(new Error(`no audit log at ${logPath} (nor any writer's ${logPath}.<writer>)`), { code: 'ENOENT' });
  const chains = await Promise.all(found.map(verifyChain));
  const problems = chains.flatMap((c) => c.problems.map((p) => (c.writer === '' ? p : `writer ${c.writer}: ${p}`)));
  const notes = chains.flatMap((c) => c.notes.map((n) => (c.writer === '' ? n : `writer ${c.writer}: ${n}`)));
  const shown = problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `... and ${problems.length - MAX_PROBLEMS} more problems`] : problems;
  return { ok: problems.length === 0, records: chains.reduce((n, c) => n + c.records, 0), problems: shown, notes, chains };
}

/**
 * Checks one chain end to end: every line is a complete record whose hash matches its content, each record
 * names the previous one's hash and the next number, and the last record is the one the head file names. So
 * an edited, removed, inserted or reordered record, a line not written as the server writes it, a cut tail, a
 * missing head file (beside a chain with records) and a deleted chain (its head file left) each fail with the
 * line or file named.
 */
async function verifyChain(chain: AuditChain): Promise<ChainVerification> {
  const { path } = chain;
  const problems: string[] = [];
  const notes: string[] = [];
  const headFile = await readHeadFile(path);
  if (!(await exists(path))) {
    problems.push(
      headFile.kind === 'head'
        ? `${path} is missing, but ${headPathOf(path)} says ${headFile.head.seq} records were written: the chain was deleted.`
        : `${path} is missing beside its head file ${headPathOf(path)}: the chain was deleted.`,
    );
    return { ...chain, ok: false, records: 0, problems, notes };
  }
  let prev = GENESIS;
  let seq = 0;
  let records = 0;
  let hashAtHead: string | undefined;
  let lineNo = 0;
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let record: AuditRecord;
    try {
      record = JSON.parse(line) as AuditRecord;
      if (record === null || typeof record !== 'object' || typeof record.hash !== 'string') throw new Error('not a record');
    } catch {
      problems.push(`line ${lineNo}: not a complete audit record (edited, or cut while being written).`);
      continue;
    }
    records++;
    // The hash seals what the line parses to; the line must also be exactly how the server writes that, so
    // a duplicate key (which a reader other than JSON.parse may take instead), spacing or escapes are edits.
    if (JSON.stringify(record) !== line)
      problems.push(
        `line ${lineNo} (record ${record.seq}): it is not written as the server writes records (a duplicate key, spacing or escapes were changed): the line was edited.`,
      );
    if (recordHash(record) !== record.hash) problems.push(`line ${lineNo} (record ${record.seq}): its content does not match its hash: the record was edited.`);
    if (record.prev !== prev)
      problems.push(`line ${lineNo} (record ${record.seq}): it does not follow the record before it (a record was removed, inserted or reordered).`);
    if (record.seq !== seq + 1) problems.push(`line ${lineNo}: record number ${record.seq} follows record ${seq}, not ${seq + 1}.`);
    if (headFile.kind === 'head' && record.seq === headFile.head.seq) hashAtHead = record.hash;
    prev = record.hash;
    seq = typeof record.seq === 'number' ? record.seq : seq + 1;
  }
  if (headFile.kind === 'missing' && records > 0)
    problems.push(`${headPathOf(path)} is missing, though the log has records: it was deleted, so records cut from the end cannot be ruled out.`);
  else if (headFile.kind === 'missing') notes.push(`${headPathOf(path)} is missing; the log has no records either.`);
  else if (headFile.kind === 'invalid') problems.push(`${headPathOf(path)} cannot be read: ${headFile.problem}.`);
  else if (seq < headFile.head.seq)
    problems.push(`the log ends at record ${seq}, but ${headPathOf(path)} says record ${headFile.head.seq} was written: records were removed from the end.`);
  else if (hashAtHead !== headFile.head.hash)
    problems.push(`record ${headFile.head.seq} is not the one ${headPathOf(path)} names: the end of the log was replaced.`);
  return { ...chain, ok: problems.length === 0, records, problems, notes };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
