import { open, stat } from 'node:fs/promises';
import type { AuditRecord } from '../../plugins/policy/index.js';
import { verifyAuditLog, type AuditVerification } from '../../plugins/policy/index.js';

export interface ActivityFilter {
  principal: string;
  tool: string;
  outcome: string;
}

/** What the outcome filter offers; each record has exactly one of these. */
export const OUTCOMES = ['ok', 'error', 'denied', 'held', 'granted', 'rejected'] as const;

const TAIL_BYTES = 2 * 1024 * 1024;
const SHOWN = 200;

/**
 * One record's outcome as an auditor names it: an approver's decision (granted, rejected), a call the
 * policy refused (denied) or held (held), or a call that ran (ok) or failed (error).
 */
export function outcomeOf(record: AuditRecord): (typeof OUTCOMES)[number] {
  if (record.approval !== undefined) return record.approval.status;
  if (record.outcome.status === 'ok') return 'ok';
  if (record.outcome.code === 'policy_denied') return 'denied';
  if (record.outcome.code === 'approval_required') return 'held';
  return 'error';
}

/**
 * The recent activity page's data: the newest records of this server's audit log (from its last 2 MiB),
 * filtered, and whether the whole chain verifies. Verifying reads the whole file, so its answer is kept
 * until the file changes.
 */
export class AuditView {
  private verified: { size: number; mtimeMs: number; result: AuditVerification } | undefined;

  constructor(readonly path: string) {}

  /** The newest matching records, newest first, and the principals and tools seen (the filter's choices). */
  async recent(filter: ActivityFilter): Promise<{ records: AuditRecord[]; scanned: number; seen: { principals: string[]; tools: string[] } }> {
    const all = await this.tail();
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
    const { size, mtimeMs } = await stat(this.path);
    if (this.verified?.size === size && this.verified.mtimeMs === mtimeMs) return this.verified.result;
    const result = await verifyAuditLog(this.path);
    this.verified = { size, mtimeMs, result };
    return result;
  }

  private async tail(): Promise<AuditRecord[]> {
    const handle = await open(this.path, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      const lines = buffer.toString('utf8').split('\n');
      if (length < size) lines.shift(); // the first line may start mid-record
      const records: AuditRecord[] = [];
      for (const line of lines) {
        if (line.trim() === '') continue;
        try {
          const record = JSON.parse(line) as AuditRecord;
          if (typeof record.seq === 'number' && record.principal && record.outcome) records.push(record);
        } catch {
          // a damaged line: the verification status says so
        }
      }
      return records;
    } finally {
      await handle.close();
    }
  }
}
