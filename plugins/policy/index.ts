import { resolve } from 'node:path';
import { inject } from 'tsyringe';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import { parseEgressAllow } from '../../core/http/egress-guard.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { BootContext, DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { ApprovalStore } from './approvals/approval-store.js';
import { redactPaths } from './approvals/argument-preview.js';
import { Deciders } from './approvals/deciders.js';
import { ApprovalNotifier, type AuditSink } from './approvals/notify/approval-notifier.js';
import { AuditLog } from './audit/audit-log.js';
import { auditedOperation, auditTrail, policyDecision, upstreamIdentityMeta, type DecisionLog, type OperationLog } from './policy-middleware.js';
import { POLICY_TOKENS, PolicySettings } from './policy-settings.js';
import { PolicySource } from './policy-source.js';
import { SessionFlow } from './flow/session-flow.js';
import { POLICY_CONTRIBUTIONS } from './contributions.js';
import { ConsoleLink } from './console-link.js';
import type { Asking } from './confirmation.js';
import { ConfirmationStates } from './confirmation-states.js';

/**
 * The enterprise layer: a policy decides every call (with approvals for risky ones), results name the
 * upstream identity that acted, and an audit log records every call. Each part is off until its setting is
 * given; with none set, the plugin adds no middleware and results are exactly as without it.
 */
@Plugin({
  name: 'policy',
  version: '1.0.0',
  settings: PolicySettings,
  configSections: ['policy', 'mcp-devtools'],
  contributes: POLICY_CONTRIBUTIONS,
})
export class PolicyPlugin implements DevtoolsPlugin {
  private source: PolicySource | undefined;
  private audit: AuditLog | undefined;
  private readonly approvals: ApprovalStore;
  /** What each session has read, for flow rules (in the shared store). */
  private readonly flow: SessionFlow;
  private readonly notifier: ApprovalNotifier | undefined;
  /** What `confirm` rules need to ask across a retry (2026-07-28): their questions' states, in the shared store. */
  private readonly asking: Asking;
  private sweeper: NodeJS.Timeout | undefined;
  /** Each call's decision, by its scope (Call.scope), for its audit record. */
  private readonly decisions: DecisionLog = new WeakMap();
  /** What each GraphQL call asks for, by its scope, for its audit record. */
  private readonly operations: OperationLog = new WeakMap();
  /** Where the console's approvals pages are, once they are mounted: held calls name it. */
  private readonly consoleLink = new ConsoleLink();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Store) store: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(TOKENS.Scrubber) scrub: Scrub,
  ) {
    const own = settings.of(PolicySettings);
    this.flow = new SessionFlow(store, own.MCP_FLOW_TTL_SECONDS * 1000, logger);
    this.asking = { states: new ConfirmationStates(store, clock, own.MCP_CONFIRMATION_TTL_SECONDS * 1000), logger, scrub, clock };
    const audit = (): AuditSink | undefined => this.auditSink();
    // Receivers are reached under the egress guard, as URLs an upstream hands out are.
    const egressAllow = parseEgressAllow(settings.of(CoreSettings).MCP_EGRESS_ALLOW);
    const receivers = ApprovalNotifier.receivers(own.MCP_APPROVAL_WEBHOOK_URL, egressAllow);
    this.notifier =
      receivers.length === 0 ? undefined : new ApprovalNotifier(receivers, own.MCP_APPROVAL_WEBHOOK_SECRET, { clock, logger, audit, egressAllow });
    this.approvals = new ApprovalStore(store, clock, own.MCP_APPROVAL_TTL_SECONDS * 1000, own.MCP_APPROVAL_MAX_PENDING, {
      preview: { redact: redactPaths(own.MCP_APPROVAL_REDACT), scrub },
      events: this.notifier,
      audit,
      deciders: Deciders.fromList(own.MCP_APPROVER_GROUPS),
    });
  }

  async boot(ctx: BootContext): Promise<void> {
    ctx.provide(POLICY_TOKENS.Approvals, this.approvals);
    ctx.provide(POLICY_TOKENS.ConsoleLink, this.consoleLink);
    // The approvals waiting, for the metrics' gauge: read from the shared store at each scrape.
    this.metrics.watchPendingApprovals?.(async () => (await this.approvals.list()).filter((approval) => approval.status === 'pending').length);
    if (this.notifier !== undefined) this.watchApprovals(ctx);
    const policyFile = this.settings.of(PolicySettings).MCP_POLICY_FILE;
    if (policyFile !== '') {
      this.source = await PolicySource.open(policyFile, process.cwd(), this.logger);
      this.source.start();
      ctx.provide(POLICY_TOKENS.PolicySource, this.source);
    }
    const auditFile = this.settings.of(PolicySettings).MCP_AUDIT_LOG;
    if (auditFile !== '') {
      this.audit = await AuditLog.open(resolve(auditFile), this.settings.of(PolicySettings).MCP_AUDIT_WRITER);
      ctx.provide(POLICY_TOKENS.AuditLog, this.audit);
      this.logger.info({ file: this.audit.path, writer: this.audit.writer || undefined, head: this.audit.current }, 'audit log open');
    }
  }

  async close(): Promise<void> {
    this.source?.stop();
    clearInterval(this.sweeper);
    if (this.notifier !== undefined) {
      // Deliveries under way get a moment to land (and be audited); retries still waiting are given up, and logged.
      await this.notifier.drain(2_000);
      this.notifier.close();
    }
    if (this.audit !== undefined) {
      await this.audit.close();
      // Copy this line elsewhere to detect a rewrite of the whole log later.
      this.logger.info({ file: this.audit.path, writer: this.audit.writer || undefined, head: this.audit.current }, 'audit log closed');
    }
  }

  /** Webhooks: the notifier for the console, and a sweep every few seconds that tells of approvals expired undecided. */
  private watchApprovals(ctx: BootContext): void {
    const own = this.settings.of(PolicySettings);
    ctx.provide(POLICY_TOKENS.Notifier, this.notifier);
    if (own.MCP_APPROVAL_WEBHOOK_SECRET === '')
      this.logger.warn('MCP_APPROVAL_WEBHOOK_URL is set without MCP_APPROVAL_WEBHOOK_SECRET: approval events are sent unsigned.');
    const every = Math.min(5_000, Math.max(250, (own.MCP_APPROVAL_TTL_SECONDS * 1000) / 4));
    this.sweeper = setInterval(() => {
      this.approvals.sweepExpired().catch((error: unknown) => this.logger.warn({ err: error }, 'approvals expiry sweep failed; the next one tries again'));
    }, every);
    this.sweeper.unref();
  }

  /** The audit log as decisions and deliveries are recorded in it: a failed write is logged, never thrown at them. */
  private auditSink(): AuditSink | undefined {
    const audit = this.audit;
    if (audit === undefined) return undefined;
    return {
      append: (entry) => audit.append(entry).catch((error: unknown) => this.logger.error({ err: error, record: entry }, 'audit record could not be written')),
    };
  }

  middleware(): StageMiddleware[] {
    const stages: StageMiddleware[] = [];
    const audited = this.audit !== undefined;
    // The identity outside the audit record, the operation noted before the decision: placed only beside
    // what this server contributes (a policy without an audit log, an audit log without a policy).
    if (this.source !== undefined) stages.push({ ...upstreamIdentityMeta(), ...(audited && { before: ['policy/audit-log'] }) });
    if (this.audit !== undefined) {
      const operation = auditedOperation(this.operations);
      stages.push(
        auditTrail(this.audit, this.decisions, this.operations, this.clock, this.logger),
        this.source === undefined ? operation : { ...operation, before: ['policy/policy-decision'] },
      );
    }
    if (this.source !== undefined)
      stages.push(policyDecision(this.source, this.approvals, this.decisions, this.logger, this.metrics, this.flow, this.asking, this.consoleLink));
    return stages;
  }
}

// What the plugin exports: its class (the server loads it by name) and the tokens of the services it provides
// (tests and other plugins resolve them). Its routes, commands and console pages come through `contributes`.
export { POLICY_TOKENS, PolicySettings } from './policy-settings.js';
