import { nodeCrypto } from '../../../core/node-crypto.js';
import type { Scrub } from '../../../core/result/secret-scrubber.js';
import type { Clock, KeyValueStore } from '../../../core/store/key-value-store.js';
import { sha256Hex } from '../canonical-json.js';
import type { ApprovalNote, Decision } from '../engine/policy-engine.js';
import { argsHash, bindingKey, type ApprovalSubject } from './approval-binding.js';
import { ApprovalLists } from './approval-lists.js';
import { alreadyDecided, ApprovalError, decisionReason, grantTokenKey, type ApprovalRecord, type Approver } from './approval-record.js';
import { argumentPreview } from './argument-preview.js';
import { withoutTokens } from './secret-shaped.js';
import { decisionAuditEntry } from './decision-audit.js';
import { Deciders } from './deciders.js';
import { ExpiryWatch } from './expiry-watch.js';
import type { ApprovalEvents, AuditSink } from './notify/approval-notifier.js';

export { ApprovalError, type ApprovalRecord, type ApprovalStatus, type Approver } from './approval-record.js';

/** What the store does beside keeping approvals: how it previews arguments, whom it tells, where it records decisions. */
export interface ApprovalHooks {
  /** Paths approvers never see (MCP_APPROVAL_REDACT) and the server's scrubber; without it, secret-shaped values are still hidden. */
  preview?: { redact: readonly string[]; scrub: Scrub };
  /** Told when a call is held, granted, rejected, or expires undecided (the webhook notifier). */
  events?: ApprovalEvents;
  /** The audit log each decision is recorded in (an append that fails is the sink's to report). */
  audit?: () => AuditSink | undefined;
  /** Who may decide (MCP_APPROVER_GROUPS, never their own calls); without it, nobody may. */
  deciders?: Deciders;
}

const RECORD = 'approval';
const BINDING = 'approval-binding';
const GRANT = 'approval-grant';
const NO_SCRUB = Object.assign((text: string) => text, { longestForm: 0 });

/**
 * Pending approvals in the shared KeyValueStore, so a grant made through any replica, the CLI or the admin
 * endpoint is honoured by every replica. Two operations are atomic on every store, so they hold across
 * workers and replicas: deciding is a compare-and-set of the pending record (of approvers deciding at once,
 * one decides and the others are told who did), and a grant is a single-use token that a retry takes (reads
 * and deletes as one), so of identical retries racing for it, one runs.
 */
export class ApprovalStore {
  private readonly expiry: ExpiryWatch | undefined;
  private readonly lists: ApprovalLists;
  readonly deciders: Deciders;

  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    /** Pending approvals one principal may have at once: one caller cannot flood the approvers' list. */
    private readonly maxPendingPerPrincipal = 20,
    private readonly hooks: ApprovalHooks = {},
  ) {
    this.lists = new ApprovalLists(store, clock, ttlMs);
    this.deciders = hooks.deciders ?? new Deciders([]);
    // Expiries are watched only for someone to tell.
    this.expiry = hooks.events === undefined ? undefined : new ExpiryWatch(store, clock);
  }

  /**
   * Turns an `approval_required` decision into what happens now: allowed once after a grant, denied after a
   * rejection, otherwise held under the pending approval for this exact call (created on first sight), or
   * denied when the caller already has as many pending approvals as it may.
   */
  async settle(decision: Decision, call: ApprovalSubject): Promise<Decision> {
    const binding = bindingKey(call);
    const id = await this.store.get<string>(BINDING, binding);
    const found = id === undefined ? undefined : await this.get(id);
    const record = found?.binding === binding ? found : undefined;
    if (record?.status === 'granted' && (await this.store.take(GRANT, grantTokenKey(record))) !== undefined) {
      // The grant is spent once taken, so this call runs whatever happens next: a record left "granted" by a
      // store failing now is harmless (no retry can take the token again), and the call is audited as allowed.
      await this.save({ ...record, status: 'used', usedAt: this.iso(this.clock.now()) }).catch(() => {});
      const why = record.decisionReason ? `: ${record.decisionReason}` : '';
      return {
        ...decision,
        effect: 'allow',
        reason: `Approved by ${record.decidedBy} (approval ${record.id})${why}. ${decision.reason}`,
        approvalId: record.id,
        approval: noteOf(record),
      };
    }
    if (record?.status === 'rejected') {
      const why = record.decisionReason ? `: ${record.decisionReason}` : '';
      return {
        ...decision,
        effect: 'deny',
        reason: `${record.decidedBy} rejected approval ${record.id} for this call${why}. ${decision.reason}`,
        approvalId: record.id,
        approval: noteOf(record),
      };
    }
    if (record?.status === 'pending') {
      // Puts the approval back on the approvers' list if writers racing to create the list dropped it there.
      await this.lists.index(record.id, Date.parse(record.expiresAt));
      return { ...decision, approvalId: record.id, expiresAt: record.expiresAt };
    }
    const { pending: pendingIds, settled } = await this.lists.pendingOf(call.principal, (id) => this.get(id));
    if (pendingIds.length >= this.maxPendingPerPrincipal) {
      return {
        ...decision,
        effect: 'deny',
        reason: `${call.principal.subject} already has ${pendingIds.length} approvals pending, the most one caller may have (MCP_APPROVAL_MAX_PENDING). Wait for an approver to decide them, or for them to expire, then retry. ${decision.reason}`,
      };
    }
    const pending = await this.create(decision, call, binding, id);
    await this.lists.notePending(call.principal, pending, settled);
    // Racing retries on several replicas can each create the same record and tell of it: the event's id is the
    // same for all of them, so a receiver drops the repeats.
    this.hooks.events?.notify('approval.held', pending);
    await this.expiry?.watch(pending).catch(() => {});
    return { ...decision, approvalId: pending.id, expiresAt: pending.expiresAt };
  }

  /** The record, or undefined when unknown or expired. */
  async get(id: string): Promise<ApprovalRecord | undefined> {
    if (!/^apr-[0-9a-f]{24}$/.test(id)) return undefined;
    const record = await this.store.get<ApprovalRecord>(RECORD, id);
    return record !== undefined && Date.parse(record.expiresAt) > this.clock.now() ? record : undefined;
  }

  /** Every approval still within its expiry, oldest first. */
  async list(): Promise<ApprovalRecord[]> {
    const records = await Promise.all((await this.lists.ids()).map((id) => this.get(id)));
    return records.filter((r): r is ApprovalRecord => r !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * `by` is the authenticated principal deciding (never a name typed in): a member of the approver groups, not
   * the caller (a `forbidden` ApprovalError otherwise). `reason`, when given, is kept with the decision, told to
   * the caller's retry, the audit log and webhook receivers.
   */
  grant(id: string, by: Approver, reason?: string): Promise<ApprovalRecord> {
    return this.decide(id, 'granted', by, reason);
  }

  /** As grant; `reason` is required: the caller whose retry is refused is told it, as are the audit log and webhook receivers. */
  reject(id: string, by: Approver, reason?: string): Promise<ApprovalRecord> {
    return this.decide(id, 'rejected', by, reason);
  }

  /**
   * Tells receivers of the pending approvals that expired with nobody deciding them (one server of those sharing
   * the store tells of each); the plugin calls it every few seconds while webhooks are configured.
   */
  async sweepExpired(): Promise<ApprovalRecord[]> {
    if (this.expiry === undefined) return [];
    const expired = await this.expiry.sweep(async (id) => (await this.get(id)) !== undefined);
    for (const record of expired) this.hooks.events?.notify('approval.expired', record);
    return expired;
  }

  private async decide(id: string, verdict: 'granted' | 'rejected', approver: Approver, rawReason?: string): Promise<ApprovalRecord> {
    const record = await this.get(id);
    if (record === undefined) throw new ApprovalError('not_found', `Approval ${id} was not found or has expired.`);
    // Separation of duties is checked here, where every path's decision ends up, so that no path can skip it.
    const refused = this.deciders.refusal(approver, record);
    if (refused !== undefined) throw new ApprovalError('forbidden', refused);
    if (record.status !== 'pending') throw alreadyDecided(record);
    // After the checks above: no reason makes a decision that cannot be made, so they are what an approver is told.
    const reason = decisionReason(rawReason, verdict);
    // The decision holds for the server's TTL from now, so an approver's grant is not wasted on a nearly expired request.
    const now = this.clock.now();
    const decided: ApprovalRecord = {
      ...record,
      status: verdict,
      decidedBy: approver.subject,
      decidedAt: this.iso(now),
      expiresAt: this.iso(now + record.ttlMs),
      ...(reason ? { decisionReason: reason } : {}),
      ...(verdict === 'granted' ? { grantKey: nodeCrypto().randomBytes(12).toString('hex') } : {}),
    };
    // The grant token goes first: a retry that sees "granted" must find it. Named for this decision alone, the
    // token of an approver who loses the race below is one no record names, so no retry can ever take it.
    if (verdict === 'granted') await this.store.set(GRANT, grantTokenKey(decided), true, record.ttlMs);
    if (!(await this.store.replaceIf(RECORD, id, record, decided, record.ttlMs))) {
      if (verdict === 'granted') await this.store.delete(GRANT, grantTokenKey(decided)).catch(() => false);
      const current = await this.get(id);
      if (current === undefined) throw new ApprovalError('not_found', `Approval ${id} expired while it was being decided.`);
      if (current.status === 'pending') throw new ApprovalError('conflict', `Approval ${id} changed while it was being decided; decide it again.`);
      throw alreadyDecided(current);
    }
    await this.link(decided);
    await this.expiry?.forget(id).catch(() => {});
    this.hooks.events?.notify(verdict === 'granted' ? 'approval.granted' : 'approval.rejected', decided);
    await this.hooks
      .audit?.()
      ?.append(decisionAuditEntry(decided, approver, decided.decidedAt!))
      .catch(() => {});
    return decided;
  }

  /**
   * A new pending approval. Its id follows from the binding and the approval it comes after (`previous`, what
   * the binding named, if anything): retries racing to create one, in one process or on several replicas,
   * all make the same record, so none is left pending where no retry will ever look (an orphan).
   */
  private async create(decision: Decision, call: ApprovalSubject, binding: string, previous: string | undefined): Promise<ApprovalRecord> {
    const now = this.clock.now();
    const scrub = this.hooks.preview?.scrub ?? NO_SCRUB;
    const preview = argumentPreview(call.args, {
      redact: [...(this.hooks.preview?.redact ?? []), ...(call.redact ?? [])],
      scrub,
      maps: call.maps ?? [],
    });
    const record: ApprovalRecord = {
      id: `apr-${sha256Hex(`${binding}\0${previous ?? ''}`).slice(0, 24)}`,
      status: 'pending',
      subject: call.principal.subject,
      groups: [...call.principal.groups],
      via: call.principal.via,
      tool: call.tool,
      // The path is shown beside the preview, so a token an agent put in a segment is cut out of it too.
      ...(call.request ? { request: { method: call.request.method, path: withoutTokens(scrub(call.request.path)) } } : {}),
      arguments: preview.json,
      redacted: preview.redacted,
      ...(preview.withheld.length > 0 ? { withheld: preview.withheld } : {}),
      identity: call.identity ?? null,
      argsHash: argsHash(call.args),
      binding,
      policyVersion: call.policyVersion,
      ruleId: decision.ruleId,
      reason: decision.reason,
      createdAt: this.iso(now),
      expiresAt: this.iso(now + this.ttlMs),
      ttlMs: this.ttlMs,
    };
    await this.save(record);
    return record;
  }

  /**
   * Writes the record and its index entry, expiring with it, and its binding, kept a TTL longer so that the
   * next approval of the same call after this one expires still gets an id of its own (see create).
   */
  private async save(record: ApprovalRecord): Promise<void> {
    const ttl = Date.parse(record.expiresAt) - this.clock.now();
    if (ttl <= 0) return;
    await this.store.set(RECORD, record.id, record, ttl);
    await this.link(record);
  }

  /** The binding and the index entry of a record just written. */
  private async link(record: ApprovalRecord): Promise<void> {
    const ttl = Date.parse(record.expiresAt) - this.clock.now();
    if (ttl <= 0) return;
    await this.store.set(BINDING, record.binding, record.id, ttl + record.ttlMs);
    await this.lists.index(record.id, Date.parse(record.expiresAt));
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}

function noteOf(record: ApprovalRecord): ApprovalNote {
  return {
    id: record.id,
    status: record.status === 'rejected' ? 'rejected' : 'granted',
    by: record.decidedBy ?? '',
    at: record.decidedAt ?? '',
    ...(record.decisionReason === undefined ? {} : { reason: record.decisionReason }),
  };
}
