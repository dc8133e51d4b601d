import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { findChains, type AuditChain } from '../audit/audit-writers.js';
import type { AuditRecord } from '../audit/audit-record.js';

/** One approver's decision as the decided tab shows it, with what became of the call. */
export interface DecidedCall {
  approvalId: string;
  status: 'granted' | 'rejected';
  by: string;
  via: string;
  time: string;
  reason?: string;
  tool: string;
  request?: { method: string; path: string };
  requestedBy: string;
  ruleId: string | null;
  /** Until when a grant could be used (a grant unused by then lapsed). */
  expiresAt?: string;
  /** The writer whose chain holds the decision ('' for the log itself), and its place in that chain. */
  writer: string;
  seq: number;
  /** A granted call's run: when it ran and how it ended (ok, or the error code). */
  run?: { time: string; outcome: string };
  /** Retries of a rejected call the server refused. */
  refusedRetries: number;
}

export interface HistoryPage {
  entries: DecidedCall[];
  page: number;
  pages: number;
  total: number;
}

export const PAGE_SIZE = 20;

/**
 * The decided tab's data, read from the audit log (MCP_AUDIT_LOG): every writer's chain of it (the log itself,
 * each worker's and each replica's `<log>.<writer>`, the CLI's), so a decision made on any replica is found
 * whichever replica answers. Each decision is joined with the records of the call it covers: the run a grant
 * let through, the retries a rejection refused. Read whole and kept until a chain changes; paged newest first.
 */
export class DecisionHistory {
  private cached: { key: string; entries: DecidedCall[] } | undefined;

  constructor(readonly path: string) {}

  async page(page: number): Promise<HistoryPage> {
    const entries = await this.all();
    const pages = Math.max(1, Math.ceil(entries.length / PAGE_SIZE));
    const at = Math.min(Math.max(1, page), pages);
    return { entries: entries.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE), page: at, pages, total: entries.length };
  }

  /** The decision of one approval, if it is in the log (the approval page of a call decided and gone from the store). */
  async find(approvalId: string): Promise<DecidedCall | undefined> {
    return (await this.all()).find((e) => e.approvalId === approvalId);
  }

  private async all(): Promise<DecidedCall[]> {
    const chains = await findChains(this.path);
    const key = (
      await Promise.all(
        chains.map((c) =>
          stat(c.path).then(
            (s) => `${c.path}:${s.size}:${s.mtimeMs}`,
            () => `${c.path}:-`,
          ),
        ),
      )
    ).join('|');
    if (this.cached?.key === key) return this.cached.entries;
    const records = (await Promise.all(chains.map(approvalRecords))).flat();
    const entries = joined(records);
    this.cached = { key, entries };
    return entries;
  }
}

type Written = AuditRecord & { writer: string };

/** Newest first: each decision with the run or the refusals of the call it decided. */
function joined(records: Written[]): DecidedCall[] {
  const byApproval = new Map<string, Written[]>();
  for (const r of records) {
    const id = r.approval?.id ?? r.decision?.approvalId;
    if (id !== undefined) byApproval.set(id, [...(byApproval.get(id) ?? []), r]);
  }
  const entries: DecidedCall[] = [];
  for (const [id, related] of byApproval) {
    const decision = related.find((r) => r.approval !== undefined);
    if (decision === undefined) continue;
    const calls = related.filter((r) => r.approval === undefined && r.notification === undefined && r.time >= decision.time);
    const run = calls.find((r) => r.decision?.effect === 'allow');
    const a = decision.approval!;
    entries.push({
      approvalId: id,
      status: a.status,
      by: decision.principal.subject,
      via: decision.principal.via,
      time: decision.time,
      ...(a.reason === undefined ? {} : { reason: a.reason }),
      tool: decision.tool,
      ...(a.request === undefined ? {} : { request: a.request }),
      requestedBy: a.requestedBy,
      ruleId: decision.decision?.ruleId ?? null,
      ...(a.expiresAt === undefined ? {} : { expiresAt: a.expiresAt }),
      writer: decision.writer,
      seq: decision.seq,
      ...(run === undefined ? {} : { run: { time: run.time, outcome: run.outcome.status === 'ok' ? 'ok' : run.outcome.code } }),
      refusedRetries: calls.filter((r) => r.decision?.effect === 'deny').length,
    });
  }
  // Newest first; decisions of one instant in their writer's order.
  return entries.sort((x, y) => (x.time !== y.time ? (x.time < y.time ? 1 : -1) : x.writer !== y.writer ? (x.writer < y.writer ? 1 : -1) : y.seq - x.seq));
}

/** The records of one chain that concern an approval (decisions, and calls held, run or refused under one). */
async function approvalRecords(chain: AuditChain): Promise<Written[]> {
  const out: Written[] = [];
  let input;
  try {
    input = createReadStream(chain.path, 'utf8');
    await new Promise<void>((resolve, reject) => input!.once('open', () => resolve()).once('error', reject));
  } catch {
    return out; // a chain whose file is gone: the activity page's verification says so
  }
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    // Most records concern no approval: skipped without parsing.
    if (!line.includes('"approval')) continue;
    try {
      const record = JSON.parse(line) as AuditRecord;
      if (record.approval !== undefined || record.decision?.approvalId !== undefined) out.push({ ...record, writer: chain.writer });
    } catch {
      // a damaged line: the activity page's verification names it
    }
  }
  return out;
}
