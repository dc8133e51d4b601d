import { open, stat } from 'node:fs/promises';
import { type AuditChain, findChains } from '../audit/audit-writers.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { verifyAuditLog, type AuditVerification } from '../audit/verify-audit-log.js';

export interface ActivityFilter {
  principal: string;
  tool: string;
  outcome: string;
}

/** What the outcome filter offers; each record has exactly one of these. */
export const OUTCOMES = ['ok', 'error', 'denied', 'held', 'granted', 'rejected', 'notified'] as const;

const TAIL_BYTES = 2 * 1024 * 1024;
const SHOWN = 200;

/**
 * One record's outcome as an auditor names it: an approver's decision (granted, rejected), an attempt to tell
 * a webhook receiver of an approval (notified, delivered or not), a call the policy refused (denied) or held
 * (held), or a call that ran (ok) or failed (error).
 */
export function outcomeOf(record: AuditRecord): (typeof OUTCOMES)[number] {
  if (record.approval !== undefined) return record.approval.status;
  if (record.notification !== undefined) return 'notified';
  if (record.outcome.status === 'ok') return 'ok';
  if (record.outcome.code === 'policy_denied') return 'denied';
  if (record.outcome.code === 'approval_required') return 'held';
  return 'error';
}

/** A record as the activity page shows it: with the writer whose chain holds it ('' for the log itself). */
export interface WrittenRecord extends AuditRecord {
  writer: string;
}

/**
 * The recent activity page's data: the newest records of every writer's chain of the audit log (the log itself
 * and each `--workers` worker's or replica's `<log>.<writer>`, from the last 2 MiB of each), merged by time
 * and filtered, and whether every chain verifies. Verifying reads every file, so its answer is kept until one
 * of them changes.
 */
export class AuditView {
  private verified: { key: string; result: AuditVerification } | undefined;

  constructor(readonly path: string) {}

  /** The newest matching records, newest first, and the principals and tools seen (the filter's choices). */
  async recent(filter: ActivityFilter): Promise<{ records: WrittenRecord[]; scanned: number; seen: { principals: string[]; tools: string[] } }> {
    const chains = await findChains(this.path);
    const all = (await Promise.all(chains.map((c) => tail(c))))
      .flat()
      // ISO times of one clock sort as text; records of one instant keep their writer's order.
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : a.seq - b.seq));
    const seen = { principals: [...new Set(all.map((r) => r.principal.subject))].sort(), tools: [...new Set(all.map((r) => r.tool))].sort() };
    const matching = all.filter(
      (r) =>
        (filter.principal === '' || r.principal.subject === filter.principal) &&
        (filter.tool === '' || r.tool === filter.tool) &&
        (filter.outcome === '' || outcomeOf(r) === filter.outcome),
    );
    return { records: matching.slice(-SHOWN).reverse(), scanned: all.length, seen };
  }

  async verification(): Promise<AuditVerification> {
    const files = (await findChains(this.path)).flatMap((c) => [c.path, `${c.path}.head`]);
    const key = (
      await Promise.all(
        files.map((f) =>
          stat(f).then(
            (s) => `${f}:${s.size}:${s.mtimeMs}`,
            () => `${f}:-`,
          ),
        ),
      )
    ).join('|');
    if (this.verified?.key === key) return this.verified.result;
    const result = await verifyAuditLog(this.path);
    this.verified = { key, result };
    return result;
  }
}

/** The records in the last 2 MiB of one chain (none when its file is gone: the verification says so). */
async function tail(chain: AuditChain): Promise<WrittenRecord[]> {
  let handle;
  try {
    handle = await open(chain.path, 'r');
  } catch {
    return [];
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift(); // the first line may start mid-record
    const records: WrittenRecord[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        const record = JSON.parse(line) as AuditRecord;
        if (typeof record.seq === 'number' && record.principal && record.outcome) records.push({ ...record, writer: chain.writer });
      } catch {
        // a damaged line: the verification status says so
      }
    }
    return records;
  } finally {
    await handle.close();
  }
}
