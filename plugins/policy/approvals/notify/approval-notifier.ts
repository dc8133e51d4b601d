import { StartupError } from '../../../../core/errors/tool-error.js';
import { EgressGuard, NO_EGRESS_ALLOWANCE, egressRefusalIn, type EgressAllowList } from '../../../../core/http/egress-guard.js';
import type { Logger } from '../../../../core/logging/logger.js';
import type { Clock } from '../../../../core/store/key-value-store.js';
import type { AuditRecord } from '../../audit/audit-record.js';
import type { ApprovalRecord } from '../approval-record.js';
import { approvalEvent, type ApprovalEventType } from './approval-event.js';
import { postWebhook, type PostWebhook } from './webhook-post.js';
import { WebhookQueue, type AttemptResult, type Delivery, type ScheduleRetry } from './webhook-queue.js';
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './webhook-signature.js';

/** Where the approvals store tells of each change of an approval (a notifier, or nothing). */
export interface ApprovalEvents {
  notify(type: ApprovalEventType, record: ApprovalRecord): void;
}

/** What records a delivery attempt: the server's audit log (or the CLI's chain of it). */
export interface AuditSink {
  append(entry: Omit<AuditRecord, 'seq' | 'prev' | 'hash'>): Promise<unknown>;
}

export interface NotifierOptions {
  clock: Clock;
  logger: Logger;
  /** The audit log once it is open (the policy plugin opens it at boot), or undefined without one. */
  audit: () => AuditSink | undefined;
  /** MCP_EGRESS_ALLOW, parsed: the loopback, private or metadata addresses receivers may be at. */
  egressAllow?: EgressAllowList;
  post?: PostWebhook;
  /** Waits before each retry: 5 attempts over about a minute and a half by default. */
  backoffMs?: readonly number[];
  timeoutMs?: number;
  maxQueued?: number;
  /** How a retry waits: the process's timers by default. */
  scheduleRetry?: ScheduleRetry;
}

const BACKOFF_MS = [1_000, 5_000, 20_000, 60_000];
const TIMEOUT_MS = 10_000;
const MAX_QUEUED = 1_000;
/** The server's own name in audit records of deliveries (an approver's decision names the approver). */
const SERVER = { subject: 'mcp-devtools', groups: [], via: 'webhook' };

/**
 * Tells webhook receivers (MCP_APPROVAL_WEBHOOK_URL) that a call is held, granted, rejected or expired: a JSON
 * event signed with MCP_APPROVAL_WEBHOOK_SECRET, posted off the call's path through a bounded queue with retries.
 * A receiver that fails is logged at warn and never fails a call; every attempt is recorded in the audit log.
 */
export class ApprovalNotifier implements ApprovalEvents {
  private consoleUrl: string | undefined;
  private readonly queue: WebhookQueue;
  /** Each receiver's egress guard, by its URL (one pool of connections each, judged by the guard). */
  private readonly guards = new Map<string, EgressGuard>();

  constructor(
    private readonly urls: readonly URL[],
    private readonly secret: string,
    private readonly options: NotifierOptions,
  ) {
    this.queue = new WebhookQueue({
      attempt: (d) => this.attempt(d),
      report: (d, result, retrying) => this.report(d, result, retrying),
      backoffMs: options.backoffMs ?? BACKOFF_MS,
      maxQueued: options.maxQueued ?? MAX_QUEUED,
      concurrency: 4,
      schedule: options.scheduleRetry,
    });
    for (const url of urls) this.guards.set(url.href, receiverGuard(url, options.egressAllow ?? NO_EGRESS_ALLOWANCE));
  }

  /**
   * The receivers of MCP_APPROVAL_WEBHOOK_URL (comma- or space-separated), checked without echoing the setting (a
   * secret): http(s) URLs, and none at an address the egress guard refuses (loopback, private, metadata...) unless
   * MCP_EGRESS_ALLOW names it. A receiver named by a host name is judged on each connection instead.
   */
  static receivers(setting: string, allow: EgressAllowList = NO_EGRESS_ALLOWANCE): URL[] {
    const entries = setting.split(/[\s,]+/).filter(Boolean);
    return entries.map((entry, i) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        // reported below
      }
      if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '')
        throw new StartupError(
          `MCP_APPROVAL_WEBHOOK_URL: receiver ${i + 1} of ${entries.length} is not an http(s) URL without user information (the setting is a secret, so it is not shown).`,
        );
      // Only an address written in the URL is named: the rest of it (a Slack path) is the secret.
      const refused = receiverGuard(url, allow).refusalOf(url);
      if (refused !== undefined) throw new StartupError(`MCP_APPROVAL_WEBHOOK_URL: receiver ${i + 1} of ${entries.length} is refused: ${refused}.`);
      return url;
    });
  }

  /** Where the console is (MCP_CONSOLE_PUBLIC_URL, or the server's address), so events link to the approval. */
  linkTo(consoleUrl: string | undefined): void {
    this.consoleUrl = consoleUrl?.replace(/\/+$/, '');
  }

  notify(type: ApprovalEventType, record: ApprovalRecord): void {
    try {
      const event = approvalEvent(type, record, new Date(this.options.clock.now()).toISOString(), this.consoleUrl);
      const body = JSON.stringify(event);
      for (const url of this.urls) this.queue.enqueue({ url, eventId: event.id, event: type, approvalId: record.id, tool: record.tool, body, attempt: 1 });
    } catch (error) {
      this.options.logger.warn({ err: error, approval: record.id, event: type }, 'approval event could not be queued');
    }
  }

  /** Waits for deliveries in flight and their retries, at most `timeoutMs` (the CLI before it exits, a server stopping). */
  drain(timeoutMs: number): Promise<void> {
    return this.queue.drain(timeoutMs);
  }

  close(): void {
    const left = this.queue.close();
    if (left > 0) this.options.logger.warn({ deliveries: left }, 'approval webhook deliveries abandoned: the server stopped before they were delivered');
  }

  private async attempt(d: Delivery): Promise<AttemptResult> {
    const started = performance.now();
    const result = await this.post(d);
    return { ...result, durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
  }

  private async post(d: Delivery): Promise<AttemptResult> {
    const headers: Record<string, string> = { [EVENT_HEADER]: d.event, [EVENT_ID_HEADER]: d.eventId, 'user-agent': 'mcp-devtools-approvals' };
    // Wall time, whatever clock the server runs on: it is the receiver's clock the timestamp is checked against.
    if (this.secret !== '') headers[SIGNATURE_HEADER] = signatureHeader(this.secret, Math.floor(Date.now() / 1000), d.body);
    try {
      const guard = this.guards.get(d.url.href) ?? receiverGuard(d.url, NO_EGRESS_ALLOWANCE);
      const answer = await (this.options.post ?? postWebhook)(d.url, d.body, headers, this.options.timeoutMs ?? TIMEOUT_MS, guard);
      if (answer.status >= 200 && answer.status < 300) return { delivered: true, status: answer.status };
      // A receiver that is busy or down may take it later; one that refuses it (4xx, a redirect) will not.
      const retry = answer.status === 408 || answer.status === 429 || answer.status >= 500;
      return { delivered: false, status: answer.status, error: `the receiver answered ${answer.status}`, retry, retryAfterMs: answer.retryAfterMs };
    } catch (error) {
      // The guard's refusal stands on every attempt (the address is the receiver's): not retried.
      const refused = egressRefusalIn(error);
      if (refused !== undefined) return { delivered: false, error: `refused by the egress guard: ${refused.message}`, retry: false };
      return { delivered: false, error: (error as Error).message || String(error), retry: true };
    }
  }

  private report(d: Delivery, result: AttemptResult | { dropped: string }, retrying: boolean): void {
    const receiver = d.url.origin;
    const failure = 'dropped' in result ? `dropped: ${result.dropped}` : result.delivered ? undefined : result.error;
    const status = 'dropped' in result ? undefined : result.status;
    const fields = { event: d.event, eventId: d.eventId, approval: d.approvalId, receiver, attempt: d.attempt, status, retrying };
    if (failure === undefined) this.options.logger.info(fields, 'approval event delivered');
    else this.options.logger.warn({ ...fields, error: failure }, retrying ? 'approval event not delivered; retrying' : 'approval event not delivered');
    const audit = this.options.audit();
    if (audit === undefined) return;
    const entry: Omit<AuditRecord, 'seq' | 'prev' | 'hash'> = {
      time: new Date(this.options.clock.now()).toISOString(),
      principal: SERVER,
      tool: d.tool,
      decision: null,
      upstream: null,
      outcome: failure === undefined ? { status: 'ok' } : { status: 'error', code: 'webhook_failed' },
      durationMs: 'dropped' in result ? 0 : (result.durationMs ?? 0),
      args: {},
      notification: {
        event: d.event,
        eventId: d.eventId,
        approvalId: d.approvalId,
        receiver,
        attempt: d.attempt,
        delivered: failure === undefined,
        ...(status === undefined ? {} : { status }),
        ...(failure === undefined ? {} : { error: failure }),
        retrying,
      },
    };
    audit
      .append(entry)
      .catch((error: unknown) => this.options.logger.error({ err: error, eventId: d.eventId }, 'audit record of a webhook delivery could not be written'));
  }
}

/**
 * The egress guard of one receiver. The guard was made for URLs a vendor hands out, judged against the vendor's
 * base URL; a receiver has no vendor, so its base is a name that never resolves (RFC 2606's .invalid), with the
 * receiver's own scheme: the operator chose http or https, and no address is allowed for being the base's.
 */
function receiverGuard(url: URL, allow: EgressAllowList): EgressGuard {
  return new EgressGuard(new URL(`${url.protocol}//webhook-receiver.invalid/`), allow);
}
