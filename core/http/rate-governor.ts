import { ToolError } from '../errors/tool-error.js';
import type { Logger } from '../logging/logger.js';
import type { Metrics, RateLimitWaitReason } from '../metrics/metrics.js';
import type { PreparedRequest, RateLimitedSite, RateLimits, UpstreamIdentity } from '../plugin/upstream-types.js';
import type { KeyValueStore } from '../store/key-value-store.js';
import { admission, recordTtlMs, withBlock, withSignal, worthSharing, type BudgetRecord } from './rate-budget.js';
import { budgetSignal, rateLimitRetryAfter, retryWhen } from './rate-limit.js';
import { sleep } from './retry-policy.js';

export interface RateGovernorOptions {
  store: KeyValueStore;
  logger: Logger;
  metrics: Metrics;
  /** MCP_RATE_LIMIT_MAX_WAIT_SECONDS, in ms: the longest a request is held for a reset or a Retry-After. */
  maxWaitMs: number;
  /** MCP_RATE_LIMIT_PACE_PERCENT: below this share of a window's budget, requests are spread over the time left. */
  pacePercent: number;
  /** The random source of the jitter after a reset or a Retry-After, in [0, 1) (Math.random unless a test fixes it). */
  random?: () => number;
}

const NAMESPACE = 'rate-limits';
/** A rate-limit answer that says no time: GitHub documents at least a minute (beyond the default bound: refused). */
const UNSAID_WAIT_MS = 60_000;
/** Rate-limit answers one request waits out before its caller hears of the limit (a vendor that keeps refusing). */
const MAX_LIMITED_RETRIES = 4;
/**
 * The most a wait for a reset or a Retry-After is stretched, at random: every caller held for the same moment
 * would otherwise send again in the same millisecond and meet the limit together (a thundering herd). The
 * vendors count these waits in whole seconds, so a second more spreads the herd at a cost within their grain.
 */
const MAX_JITTER_MS = 1000;
/** Attempts at a compare-and-set on one record while other workers write it too. */
const WRITE_ATTEMPTS = 6;
/**
 * After the store failed, how long requests go ungoverned without asking it again: a hung Redis costs each
 * operation MCP_STORE_TIMEOUT_MS, which no request should pay for a budget.
 */
const STORE_RETRY_MS = 30_000;

/**
 * The budgets a process-local (memory) store may hold, by store and then by credential key: until when the last
 * record written for it lives. Nothing but the governors of this process (the kernel's, the token renewals')
 * writes such a store, so a credential none of them wrote a record for has none: its requests are admitted
 * without a read (a store read is three modules and a timer on every request). A shared store (SQLite, Redis)
 * is always read: another worker or replica may have met a limit this one has not seen.
 */
const writtenBudgets = new WeakMap<KeyValueStore, Map<string, number>>();

/**
 * The rate-limit governor: one budget per vendor and credential, kept in the shared store so every worker and
 * replica spends the same one, fed by each answer's own signals (`x-ratelimit-*`, `Retry-After`, 429 and
 * GitHub's secondary limits). Before a request it slows down while little is left, holds it while a reset or
 * a Retry-After is near, and refuses it at once, saying when to retry, while that is far. After a rate-limit
 * answer it waits and has the request sent again when the wait is within the bound: a 429 (and GitHub's
 * rate-limit 403) means the vendor refused the request before doing it, so a write is safe to send again.
 *
 * The credential is known by its fingerprint (a hash of the secret, or of a linked account's id), never by the
 * secret; neither is logged. A store that fails degrades to no governor for that request, never a failed call.
 */
export class RateGovernor implements RateLimits {
  /** Until when the store is left alone after it failed (0: it works). */
  private storeDownUntil = 0;
  /** What this process wrote to a memory store (writtenBudgets); undefined for a shared store. */
  private readonly written: Map<string, number> | undefined;

  constructor(private readonly options: RateGovernorOptions) {
    const { store } = options;
    if (store.kind === 'memory') {
      let written = writtenBudgets.get(store);
      if (written === undefined) writtenBudgets.set(store, (written = new Map()));
      this.written = written;
    }
  }

  async admit(site: RateLimitedSite, request: PreparedRequest, signal: AbortSignal): Promise<void> {
    const { identity } = site;
    if (this.nothingKnown(identity)) return;
    const resource = resourceOf(request);
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const record = await this.read(identity);
      if (record === undefined) return;
      const now = Date.now();
      const decision = admission(record, resource, now, this.options.pacePercent, this.options.maxWaitMs);
      if (decision === undefined) return;
      if (decision.next !== undefined && !(await this.replace(identity, record, decision.next, now))) continue;
      if (decision.waitMs <= 0) return;
      if (decision.waitMs > this.options.maxWaitMs) throw refusal(site, request, decision.untilMs, decision.reason, now, this.options.maxWaitMs);
      await this.wait(identity, decision.reason, decision.waitMs, signal);
      return;
    }
  }

  async retryAfter(
    identity: UpstreamIdentity,
    request: PreparedRequest,
    answer: { status: number; headers: Headers; text: string },
    limitedRetries: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    const now = Date.now();
    const resource = resourceOf(request);
    const budget = budgetSignal(answer.headers, now);
    // The budget the answer names (GitHub's x-ratelimit-resource), else the one the request was thought to spend.
    const spent = budget?.resource ?? resource;
    if (budget !== undefined) this.options.metrics.rateLimitRemaining(identity.vendor, spent, budget.remaining);
    const limited = rateLimitRetryAfter(answer.status, answer.headers, now, () => answer.text, request.graphql !== undefined);
    if (limited === undefined) {
      if (budget !== undefined && worthSharing(budget, this.options.pacePercent)) await this.update(identity, (r) => withSignal(r, spent, budget));
      return false;
    }
    const waitMs = limited.seconds === undefined ? UNSAID_WAIT_MS : limited.seconds * 1000;
    // GitHub's primary limit (remaining 0, no Retry-After) spends one resource's budget until its reset; any
    // other limit (a 429, a secondary limit) holds every request of the credential.
    const primary = budget !== undefined && budget.remaining === 0 && answer.headers.get('retry-after') === null;
    await this.update(identity, (r) =>
      primary ? withSignal(r, spent, budget) : withBlock(budget === undefined ? r : withSignal(r, spent, budget), now + waitMs),
    );
    if (waitMs > this.options.maxWaitMs || limitedRetries >= MAX_LIMITED_RETRIES || signal.aborted) return false;
    await this.wait(identity, 'retry', waitMs, signal);
    return true;
  }

  private async wait(identity: UpstreamIdentity, reason: RateLimitWaitReason, waitMs: number, signal: AbortSignal): Promise<void> {
    // A paced request already has a slot of its own; a wait for a moment every waiter shares is spread out.
    const ms = reason === 'pace' ? waitMs : waitMs + jitterMs(this.options.random ?? Math.random);
    this.options.metrics.rateLimitWait(identity.vendor, reason, ms / 1000);
    this.options.logger.debug({ vendor: identity.vendor, reason, waitMs: Math.round(ms) }, 'holding an upstream request for the rate limit');
    await sleep(ms, signal);
  }

  /**
   * Whether the store cannot hold a budget for this credential: a memory store no governor of this process wrote
   * one to, or whose record has expired since. Without any record at all the credential is not even keyed (its
   * fingerprint is a hash, made on first use).
   */
  private nothingKnown(identity: UpstreamIdentity): boolean {
    const written = this.written;
    if (written === undefined) return false;
    if (written.size === 0) return true;
    const key = keyOf(identity);
    const until = written.get(key);
    if (until !== undefined && until > Date.now()) return false;
    written.delete(key);
    return true;
  }

  /** Notes a record about to be written (before the write: a request admitted meanwhile reads the store). */
  private writing(key: string, record: BudgetRecord, now: number): void {
    if (this.written === undefined) return;
    this.written.set(key, Math.max(this.written.get(key) ?? 0, now + recordTtlMs(record, now)));
  }

  private async read(identity: UpstreamIdentity): Promise<BudgetRecord | undefined> {
    if (this.storeDown()) return undefined;
    try {
      return await this.options.store.get<BudgetRecord>(NAMESPACE, keyOf(identity));
    } catch (error) {
      this.storeFailed(identity, error);
      return undefined;
    }
  }

  private async replace(identity: UpstreamIdentity, expected: BudgetRecord, next: BudgetRecord, now: number): Promise<boolean> {
    const key = keyOf(identity);
    this.writing(key, next, now);
    try {
      return await this.options.store.replaceIf(NAMESPACE, key, expected, next, recordTtlMs(next, now));
    } catch (error) {
      this.storeFailed(identity, error);
      // Without the store the request goes as it would without a governor.
      return true;
    }
  }

  /** Read, change, compare-and-set, again while another worker wrote in between. */
  private async update(identity: UpstreamIdentity, change: (record: BudgetRecord | undefined) => BudgetRecord): Promise<void> {
    const { store } = this.options;
    const key = keyOf(identity);
    if (this.storeDown()) return;
    try {
      for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
        const record = await store.get<BudgetRecord>(NAMESPACE, key);
        const next = change(record);
        const now = Date.now();
        this.writing(key, next, now);
        // A first record has nothing to compare with: two workers writing one at once, the later wins, and the
        // next answer of either brings the budget back.
        if (record === undefined) return await store.set(NAMESPACE, key, next, recordTtlMs(next, now));
        if (await store.replaceIf(NAMESPACE, key, record, next, recordTtlMs(next, now))) return;
      }
    } catch (error) {
      this.storeFailed(identity, error);
    }
  }

  private storeDown(): boolean {
    return this.storeDownUntil > Date.now();
  }

  private storeFailed(identity: UpstreamIdentity, error: unknown): void {
    if (this.storeDown()) return;
    this.storeDownUntil = Date.now() + STORE_RETRY_MS;
    this.options.logger.warn(
      { vendor: identity.vendor, err: (error as Error).message },
      `the rate-limit budget could not be read or written; upstream requests go ungoverned for ${STORE_RETRY_MS / 1000} s`,
    );
  }
}

/** A random stretch of a wait for a moment other callers share: [0, 1 s). */
export function jitterMs(random: () => number): number {
  return Math.floor(Math.min(Math.max(random(), 0), 0.999) * MAX_JITTER_MS);
}

/** The store key of a credential's budget: the vendor and the fingerprint (a hash; never the secret). */
function keyOf(identity: UpstreamIdentity): string {
  return `${identity.vendor}:${identity.fingerprint}`;
}

/**
 * Which of the vendor's budgets a request spends, before its answer names it (`x-ratelimit-resource`): GitHub
 * keeps GraphQL, search and code search apart from the rest (`core`); other vendors have one.
 */
export function resourceOf(request: PreparedRequest): string {
  if (request.graphql !== undefined) return 'graphql';
  if (/\/search\/code(\/|$)/.test(request.path)) return 'code_search';
  if (/\/search\//.test(request.path)) return 'search';
  return 'core';
}

/** A request not sent: the wait is beyond the bound; when to retry, as a moment and in seconds. */
function refusal(site: RateLimitedSite, request: PreparedRequest, untilMs: number, reason: RateLimitWaitReason, now: number, maxWaitMs: number): ToolError {
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  const why =
    reason === 'reset' ? 'its rate-limit budget for this credential is spent until the window resets' : 'it answered a rate limit for this credential';
  return new ToolError(
    'upstream_rate_limited',
    `${site.label}: ${request.method} ${request.path} was not sent: ${why}, further off than the ${Math.round(maxWaitMs / 1000)} seconds a request is held (MCP_RATE_LIMIT_MAX_WAIT_SECONDS). ${retryWhen(seconds, now)}.`,
    { retryAfterSeconds: seconds },
  );
}
