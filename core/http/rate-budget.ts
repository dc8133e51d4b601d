import type { BudgetSignal } from './rate-limit.js';

/**
 * What one credential of one vendor has left, as every worker and replica sees it (the rate-limit governor
 * keeps it in the shared store, rate-governor.ts). Plain JSON, no `undefined`: the store refuses it.
 */
export interface BudgetRecord {
  /** A 429 or a secondary limit said nothing may be sent before this moment (ms since the epoch). */
  blockedUntilMs?: number;
  /** Each budget the vendor keeps apart (GitHub's `core`, `search`, `graphql`), by name. */
  resources: Record<string, ResourceBudget>;
}

export interface ResourceBudget {
  /** Left in the window: the lowest the vendor reported, less the requests let through since while pacing. */
  remaining: number;
  limit?: number;
  resetAtMs: number;
  /** While pacing: the earliest moment the next request may go. */
  nextAtMs?: number;
}

/** Why a request waits, and until when; `next` is the record to write first (a paced request takes its slot). */
export interface Admission {
  waitMs: number;
  reason: 'pace' | 'reset' | 'retry';
  /** When the budget is whole again or the block ends: what a refusal names. */
  untilMs: number;
  next?: BudgetRecord;
}

/** A vendor resets reset times by a second or so between answers; a later reset than that is a new window. */
const SAME_WINDOW_MS = 1000;

/** The request count below which requests are spread over the time left: `pacePercent` of the window's budget. */
export function paceBelow(limit: number | undefined, pacePercent: number): number {
  return limit === undefined ? 0 : Math.ceil((limit * pacePercent) / 100);
}

/** Whether an answer's budget is worth sharing: only once pacing could start (above that, nothing waits on it). */
export function worthSharing(signal: BudgetSignal, pacePercent: number): boolean {
  return signal.remaining <= paceBelow(signal.limit, pacePercent);
}

/** The record with an answer's budget: a later window replaces the resource's budget; in the same one, the lower count wins. */
export function withSignal(record: BudgetRecord | undefined, resource: string, signal: BudgetSignal): BudgetRecord {
  const resources = { ...record?.resources };
  const known = resources[resource];
  const fresh: ResourceBudget = { remaining: signal.remaining, resetAtMs: signal.resetAtMs, ...(signal.limit === undefined ? {} : { limit: signal.limit }) };
  if (known === undefined || signal.resetAtMs > known.resetAtMs + SAME_WINDOW_MS) resources[resource] = fresh;
  else resources[resource] = { ...known, remaining: Math.min(known.remaining, signal.remaining), ...(fresh.limit === undefined ? {} : { limit: fresh.limit }) };
  return { ...record, resources };
}

/** The record with nothing to be sent before `untilMs` (a later block than the one it has wins). */
export function withBlock(record: BudgetRecord | undefined, untilMs: number): BudgetRecord {
  return { resources: {}, ...record, blockedUntilMs: Math.max(untilMs, record?.blockedUntilMs ?? 0) };
}

/**
 * Whether a request may go now, from the shared record: not before a block ends; not before the reset when
 * the budget is spent; below `paceBelow`, one request per `(reset - now) / remaining`, taking its slot and one
 * request of the budget (so other workers see it spent before the vendor's answer says so). A paced slot is
 * never put more than `maxPaceMs` ahead: pacing slows down, it does not refuse.
 */
export function admission(record: BudgetRecord, resource: string, nowMs: number, pacePercent: number, maxPaceMs: number): Admission | undefined {
  if ((record.blockedUntilMs ?? 0) > nowMs) return { waitMs: record.blockedUntilMs! - nowMs, reason: 'retry', untilMs: record.blockedUntilMs! };
  const budget = record.resources[resource];
  if (budget === undefined || budget.resetAtMs <= nowMs) return undefined;
  if (budget.remaining <= 0) return { waitMs: budget.resetAtMs - nowMs, reason: 'reset', untilMs: budget.resetAtMs };
  if (budget.remaining > paceBelow(budget.limit, pacePercent)) return undefined;
  const spacing = (budget.resetAtMs - nowMs) / budget.remaining;
  const at = Math.min(Math.max(nowMs, budget.nextAtMs ?? nowMs), nowMs + maxPaceMs);
  const next: BudgetRecord = {
    ...record,
    resources: { ...record.resources, [resource]: { ...budget, remaining: budget.remaining - 1, nextAtMs: Math.round(at + spacing) } },
  };
  return { waitMs: at - nowMs, reason: 'pace', untilMs: budget.resetAtMs, next };
}

/** How long a record is kept: until its last block or reset, and a minute more (never for ever; never past six hours). */
export function recordTtlMs(record: BudgetRecord, nowMs: number): number {
  const last = Math.max(record.blockedUntilMs ?? 0, ...Object.values(record.resources).map((b) => b.resetAtMs));
  return Math.min(6 * 3600_000, Math.max(1000, last - nowMs + 60_000));
}
