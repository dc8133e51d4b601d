import { resolve } from 'node:path';
import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { BootContext, DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { ApprovalStore } from './approvals/approval-store.js';
import { AuditLog } from './audit/audit-log.js';
import { auditedOperation, auditTrail, policyDecision, upstreamIdentityMeta, type DecisionLog, type OperationLog } from './policy-middleware.js';
import { POLICY_TOKENS, PolicySettings } from './policy-settings.js';
import { PolicySource } from './policy-source.js';

/**
 * The enterprise layer: a policy decides every call (with approvals for risky ones), results name the
 * upstream identity that acted, and an audit log records every call. Each part is off until its setting is
 * given; with none set, the plugin adds no middleware and results are exactly as without it.
 */
@Plugin({ name: 'policy', version: '1.0.0', settings: PolicySettings, configSections: ['policy', 'mcp-devtools'] })
export class PolicyPlugin implements DevtoolsPlugin {
  private source: PolicySource | undefined;
  private audit: AuditLog | undefined;
  private readonly approvals: ApprovalStore;
  /** Each call's decision, by its scope (Call.scope), for its audit record. */
  private readonly decisions: DecisionLog = new WeakMap();
  /** What each GraphQL call asks for, by its scope, for its audit record. */
  private readonly operations: OperationLog = new WeakMap();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Store) store: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {
    const { MCP_APPROVAL_TTL_SECONDS, MCP_APPROVAL_MAX_PENDING } = settings.of(PolicySettings);
    this.approvals = new ApprovalStore(store, clock, MCP_APPROVAL_TTL_SECONDS * 1000, MCP_APPROVAL_MAX_PENDING);
  }

  async boot(ctx: BootContext): Promise<void> {
    ctx.provide(POLICY_TOKENS.Approvals, this.approvals);
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
    if (this.audit !== undefined) {
      await this.audit.close();
      // Copy this line elsewhere to detect a rewrite of the whole log later.
      this.logger.info({ file: this.audit.path, writer: this.audit.writer || undefined, head: this.audit.current }, 'audit log closed');
    }
  }

  middleware(): StageMiddleware[] {
    const stages: StageMiddleware[] = [];
    if (this.source !== undefined) stages.push(upstreamIdentityMeta());
    if (this.audit !== undefined)
      stages.push(auditTrail(this.audit, this.decisions, this.operations, this.clock, this.logger), auditedOperation(this.operations));
    if (this.source !== undefined) stages.push(policyDecision(this.source, this.approvals, this.decisions, this.logger, this.metrics));
    return stages;
  }
}

// What the rest of the server (the CLI's policy, approvals and audit commands, the admin routes, the approvals
// console) uses of the policy layer: this entry point only, never the files behind it.
export { ApprovalError, ApprovalStore, type ApprovalRecord } from './approvals/approval-store.js';
export type { AuditLog } from './audit/audit-log.js';
export { shapeOf, type AuditRecord, type Shape } from './audit/audit-record.js';
export { chainLabel, findChains, workerWriter, type AuditChain } from './audit/audit-writers.js';
export { verifyAuditLog, type AuditVerification, type ChainVerification } from './audit/verify-audit-log.js';
export { readPolicyDocument, type ConditionsSpec } from './document/policy-document.js';
export { factsFor, publicIdentity, type CallFacts } from './engine/call-facts.js';
export type { Decision, PolicyEngine, RuleTrace } from './engine/policy-engine.js';
export { POLICY_TOKENS, PolicySettings } from './policy-settings.js';
export { loadPolicyFile, type PolicySource } from './policy-source.js';
