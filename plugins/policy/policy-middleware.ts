import { isToolError } from '../../core/errors/tool-error.js';
import { servedPath } from '../../core/http/path-guards.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { Answer, Call } from '../../core/plugin/call.js';
import type { GraphqlFacts } from '../../core/plugin/upstream-types.js';
import type { AroundMiddleware } from '../../core/plugin/stages.js';
import type { Clock } from '../../core/store/key-value-store.js';
import type { ApprovalStore } from './approvals/approval-store.js';
import { freeFormMaps } from './approvals/free-form-maps.js';
import type { AuditLog } from './audit/audit-log.js';
import { auditedProvenance, shapeOf, type AuditRecord } from './audit/audit-record.js';
import { callFacts, publicIdentity, type CallFacts } from './engine/call-facts.js';
import type { ApprovalNote, Decision } from './engine/policy-engine.js';
import type { PolicySource } from './policy-source.js';
import { confirmationAsked, confirmationStoreUnavailable, furtherRefusal, redirectRefusal, refusal, storeUnavailable } from './refusal.js';
import type { ConsoleLink } from './console-link.js';
import { flowDecision, usesFlow } from './flow/flow-decision.js';
import { asked, CONFIRMATION_META_KEY, confirmed, settleConfirmation, type Asking } from './confirmation.js';
import type { SessionFlow } from './flow/session-flow.js';

/** The `_meta` key naming the upstream identity that acted (core: the identity plugin writes it too). */
export { UPSTREAM_META_KEY } from '../../core/plugin/public-upstream.js';
import { UPSTREAM_META_KEY } from '../../core/plugin/public-upstream.js';
/** The `_meta` key of a call an approver decided: who granted or rejected it, when and why. */
export const APPROVAL_META_KEY = 'mcp-devtools/approval';

/** Decisions of calls in flight, for the audit record (a refusal's also travels in `_meta`). */
export type DecisionLog = WeakMap<Call['scope'], Decision>;

/** What GraphQL calls in flight ask for, for their audit records. */
export type OperationLog = WeakMap<Call['scope'], GraphqlFacts>;

/**
 * Policy stage, first: notes what a validated GraphQL call asks for (operation, name, root fields, read from
 * its prepared request), so that the audit record around the call can say it, with or without a policy.
 */
export function auditedOperation(operations: OperationLog): AroundMiddleware {
  return {
    stage: 'policy',
    name: 'audit-operation',
    appliesTo: (tool) => tool.graphql !== undefined,
    run: (ctx, next) => {
      const graphql = ctx.prepared?.graphql;
      if (graphql !== undefined) operations.set(ctx.scope, { operation: graphql.operation, name: graphql.name, fields: [...graphql.fields] });
      return next(ctx);
    },
  };
}

/**
 * Envelope stage, inside the core envelope: every result of a call under a policy (success, validation
 * error or refusal) names the upstream identity, null for a tool that has none.
 */
export function upstreamIdentityMeta(): AroundMiddleware {
  return {
    stage: 'envelope',
    name: 'upstream-identity',
    after: ['kernel/result-envelope'],
    run: (call, next) => {
      call.meta[UPSTREAM_META_KEY] = publicIdentity(call.tool.upstream?.identity);
      return next(call);
    },
  };
}

/**
 * The policy stage: after validation (rules see typed arguments and the prepared request), before the
 * upstream call and its cache. A refusal ends the call as an error result; nothing is sent upstream.
 */
export function policyDecision(
  source: PolicySource,
  approvals: ApprovalStore,
  decisions: DecisionLog,
  logger: Logger,
  metrics: Metrics,
  flow: SessionFlow,
  asking: Asking,
  console?: ConsoleLink,
): AroundMiddleware {
  return {
    stage: 'policy',
    name: 'policy-decision',
    run: async (ctx, next) => {
      const engine = source.current;
      // Flow facts are read from the store only when some rule asks for them.
      const flowRules = usesFlow(engine.policy.document);
      const facts: CallFacts = flowRules ? { ...callFacts(ctx), flow: await flow.facts(ctx) } : callFacts(ctx);
      let decision = flowDecision(engine.decide(facts), engine.policy.document, facts);
      let storeDown = false;
      // Asked of the person when the client can be asked; otherwise held for an approver, as approval_required.
      if (decision.effect === 'confirm') {
        try {
          decision = await settleConfirmation(decision, ctx, facts, asking);
        } catch (error) {
          // The states of questions asked across a retry live in the store: without it, no answer can be trusted.
          logger.error({ err: error, tool: facts.tool }, 'confirmation store failed; the call is denied');
          const refused = confirmationStoreUnavailable(decision, facts);
          decisions.set(ctx.scope, refused.meta!.decision as Decision);
          metrics.policyDecision('deny');
          throw refused;
        }
      }
      if (decision.effect === 'approval_required') {
        try {
          decision = await approvals.settle(decision, {
            principal: ctx.principal,
            tool: facts.tool,
            args: ctx.args,
            policyVersion: decision.policyVersion,
            ...(facts.method !== null && facts.path !== null ? { request: { method: facts.method, path: facts.path } } : {}),
            identity: facts.identity,
            redact: engine.policy.document.rules.find((r) => r.id === decision.ruleId)?.redact ?? [],
            maps: freeFormMaps(ctx.tool.spec.input),
          });
        } catch (error) {
          logger.error({ err: error, tool: facts.tool }, 'approvals store failed; the call is denied');
          storeDown = true;
          decision = {
            effect: 'deny',
            ruleId: decision.ruleId,
            reason: 'The approvals store could not be reached, so the call is denied. Try again later.',
            policyVersion: decision.policyVersion,
          };
        }
      }
      decisions.set(ctx.scope, decision);
      metrics.policyDecision(decision.effect);
      // A 2026-07-28 client was just asked (the result becomes input_required, and the retry carries the answer).
      if (asked(decision)) throw confirmationAsked(decision, facts);
      if (decision.approval !== undefined) ctx.meta[APPROVAL_META_KEY] = decision.approval;
      if (confirmed(decision)) ctx.meta[CONFIRMATION_META_KEY] = decision;
      else if (decision.effect !== 'allow') throw storeDown ? storeUnavailable(decision, facts) : refusal(decision, facts, console);
      const outer = ctx.decideFurther;
      const decideFurther: Call['decideFurther'] = (request, identity) => {
        // What a stage outside this one decides of the request (an allowlist) first: it may only refuse.
        outer?.(request, identity);
        // A request beyond the route (a further request, a redirect hop), decided by the same policy version as
        // if a call had named it, under the identity of the client that sends it.
        const further: CallFacts = {
          ...facts,
          vendor: identity.vendor,
          identity: publicIdentity(identity),
          method: request.method,
          path: servedPath(request.path),
          graphql: request.graphql ?? null,
          request: { method: request.method, path: request.path, search: request.search ?? '', body: request.body, graphql: request.graphql !== undefined },
        };
        const verdict = engine.decide(further);
        if (verdict.effect === 'allow') return;
        // An approver granted this call under this very rule: the grant covers what the call does.
        if (verdict.effect === 'approval_required' && decision.approvalId !== undefined && verdict.ruleId === decision.ruleId) return;
        // The person confirmed this call under this very rule: their yes covers what the call does, as a grant does.
        if (verdict.effect === 'confirm' && verdict.ruleId === decision.ruleId && (confirmed(decision) || decision.approvalId !== undefined)) return;
        const refused =
          request.redirectOf !== undefined
            ? redirectRefusal(verdict, facts, request.redirectOf, redirectTarget(request.path, identity.host, facts))
            : furtherRefusal(verdict, facts, further, ctx.tool.plugin);
        decisions.set(ctx.scope, refused.meta!.decision as Decision);
        throw refused;
      };
      const answer = await next({ ...ctx, decideFurther });
      // What this result's labels say the session has now read, for the flow rules of its later calls.
      if (flowRules && answer.result.isError !== true) await flow.record(ctx, answer.result._meta);
      return decision.approval === undefined ? answer : withApprovalNote(answer, decision.approval);
    },
  };
}

/**
 * The result of a call that ran on a grant, with a last text block that says so: who granted it, when and why
 * (the tool's own text stays first and unchanged; `_meta` carries the same for programs).
 */
function withApprovalNote(answer: Answer, note: ApprovalNote): Answer {
  const why = note.reason === undefined ? '' : `: ${note.reason}`;
  const text = `Ran on approval ${note.id}, granted by ${note.by} at ${note.at}${why}`;
  return { ...answer, result: { ...answer.result, content: [...answer.result.content, { type: 'text', text }] } };
}

/**
 * Where a refused redirect led, as its refusal names it: the path on the call's own host; on another host (a
 * storage host), that host and the path without its query, which may hold the URL's signature.
 */
function redirectTarget(path: string, host: string, facts: CallFacts): string {
  return host === facts.identity?.host ? path : `${host}${path.split('?', 1)[0]}`;
}

/**
 * Envelope stage, inside the core envelope: one audit record per call, whatever its end (validation error,
 * refusal, upstream error, success), written before the result goes back.
 */
export function auditTrail(audit: AuditLog, decisions: DecisionLog, operations: OperationLog, clock: Clock, logger: Logger): AroundMiddleware {
  return {
    stage: 'envelope',
    name: 'audit-log',
    after: ['kernel/result-envelope'],
    run: async (ctx, next) => {
      const started = performance.now();
      const time = new Date(clock.now()).toISOString();
      const args = shapeOf(ctx.args);
      let outcome: AuditRecord['outcome'] = { status: 'ok' };
      let provenance: AuditRecord['provenance'];
      try {
        const answer = await next(ctx);
        provenance = auditedProvenance(answer.result._meta);
        return answer;
      } catch (thrown) {
        // The same code the core envelope will put in the result.
        outcome = { status: 'error', code: isToolError(thrown) ? thrown.code : ctx.signal.aborted ? 'cancelled' : 'tool_failed' };
        throw thrown;
      } finally {
        const entry = {
          time,
          requestId: ctx.requestId,
          principal: { subject: ctx.principal.subject, groups: [...ctx.principal.groups], via: ctx.principal.via },
          ...(ctx.client === undefined ? {} : { client: { ...ctx.client } }),
          tool: ctx.tool.spec.name,
          decision: decisions.get(ctx.scope) ?? null,
          // The person's account when the call acted as one (the identity plugin's stage writes it inside this one).
          upstream: (ctx.meta[UPSTREAM_META_KEY] as ReturnType<typeof publicIdentity> | undefined) ?? publicIdentity(ctx.tool.upstream?.identity),
          outcome,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          args,
          ...(operations.has(ctx.scope) ? { graphql: operations.get(ctx.scope)! } : {}),
          ...(provenance === undefined ? {} : { provenance }),
        };
        await audit.append(entry).catch((error: unknown) => logger.error({ err: error, record: entry }, 'audit record could not be written'));
      }
    },
  };
}
