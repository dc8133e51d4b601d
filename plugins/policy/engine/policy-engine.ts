import type { LoadedPolicy } from '../document/policy-document.js';
import type { CallFacts, FlowFacts } from './call-facts.js';
import { compileRule, type CompiledRule, type Effect } from './compiled-rule.js';
import type { Condition } from './conditions.js';
import { RuleIndex, type ResidualRule } from './rule-index.js';

export type { Effect } from './compiled-rule.js';

/** The decision object of `_meta.decision`, the audit log and `policy explain`. */
export interface Decision {
  effect: Effect;
  /** The rule that decided, or null for the default deny (and an evaluation error). */
  ruleId: string | null;
  reason: string;
  policyVersion: string;
  approvalId?: string;
  expiresAt?: string;
  /** For a call an approver decided (the retry of a granted call, a rejected one): who, when, and why. */
  approval?: ApprovalNote;
  /** For a decision by a flow rule: what the session had read, and where the call writes. */
  flow?: FlowFacts;
  /** For a `confirm` decision the person was asked: what they answered, who they are, and when. */
  confirmation?: Confirmation;
}

/** The person's answer to a `confirm` rule's question (form-mode elicitation). */
export interface Confirmation {
  answer: 'accept' | 'decline' | 'cancel';
  by: string;
  at: string;
}

/** An approver's decision as the caller's result and the audit record of the call carry it. */
export interface ApprovalNote {
  id: string;
  status: 'granted' | 'rejected';
  by: string;
  at: string;
  reason?: string;
}

/** What settling tool-level conditions leaves, shared by every caller of one tool. */
interface ToolEntry {
  facts: CallFacts;
  rules: Array<{ rule: CompiledRule; exceptToolHolds: boolean }>;
  /** By the caller's relevant identity (see callerClass): callers the document cannot tell apart share one. */
  callers: Map<string, Record<Effect, RuleIndex>>;
}

export interface RuleTrace {
  id: string;
  effect: Effect;
  line?: number;
  applies: boolean;
  conditions: Array<{ block: 'match' | 'except'; key: string; expected: string; actual: string; holds: boolean }>;
}

/** Deny beats approval_required beats confirm (the person asked) beats allow; what no rule allows is denied. */
const PRECEDENCE: readonly Effect[] = ['deny', 'approval_required', 'confirm', 'allow'];
const MAX_CACHED_CALLERS = 10_000; // classes of callers per tool

/**
 * A compiled policy. `decide` is the server's hot path: rules are narrowed once per (tool, caller) to those
 * whose tool and caller conditions hold; of these, a call tries only the rules the index finds for its
 * arguments and path, and the few the index cannot file. `explain` evaluates every condition of every rule
 * instead; both pick the deciding rule the same way (a test holds them to it).
 */
export class PolicyEngine {
  private readonly rules: CompiledRule[];
  private readonly tools = new Map<string, ToolEntry>();
  /** Every subject and group some rule names: nothing else about a caller can change a decision. */
  private readonly namedSubjects = new Set<string>();
  private readonly namedGroups = new Set<string>();

  constructor(readonly policy: LoadedPolicy) {
    this.rules = policy.document.rules.map(compileRule);
    for (const rule of policy.document.rules) {
      for (const block of [rule.match, rule.except]) {
        for (const s of block?.subjects ?? []) this.namedSubjects.add(s);
        for (const g of block?.groups ?? []) this.namedGroups.add(g);
      }
    }
  }

  get version(): string {
    return this.policy.version;
  }

  /**
   * The decision on a call. A GraphQL operation of several root fields is decided field by field, as if each
   * were its own request, and the strictest decision wins: an allowed field cannot carry a forbidden one along.
   */
  decide(facts: CallFacts): Decision {
    const parts = perField(facts);
    if (parts.length === 1) return this.decideOne(facts);
    return strictest(parts.map((part) => this.decideOne(part)));
  }

  private decideOne(facts: CallFacts): Decision {
    try {
      const byEffect = this.narrowedFor(facts);
      const applies = (r: ResidualRule): boolean => allHold(r.rule.matchRequest, facts) && !(r.except !== undefined && allHold(r.except, facts));
      for (const effect of PRECEDENCE) {
        const winner = byEffect[effect].first(facts, applies);
        if (winner !== undefined) return this.decisionFor(winner.rule, facts);
      }
      return this.decisionFor(undefined, facts);
    } catch (error) {
      return this.evaluationFailed(error);
    }
  }

  /** Every rule with each condition's outcome, and the decision they lead to (for a GraphQL operation, its deciding field's). */
  explain(facts: CallFacts): { decision: Decision; rules: RuleTrace[] } {
    const parts = perField(facts);
    if (parts.length === 1) return this.explainOne(facts);
    const explained = parts.map((part) => this.explainOne(part));
    const decision = strictest(explained.map((e) => e.decision));
    return explained.find((e) => e.decision === decision)!;
  }

  private explainOne(facts: CallFacts): { decision: Decision; rules: RuleTrace[] } {
    try {
      const rules = this.rules.map((rule): RuleTrace => {
        const conditions = [...rule.match.map((c) => trace('match', c, facts)), ...(rule.except ?? []).map((c) => trace('except', c, facts))];
        const matched = conditions.filter((c) => c.block === 'match').every((c) => c.holds);
        const excepted = rule.except !== undefined && conditions.filter((c) => c.block === 'except').every((c) => c.holds);
        return { id: rule.id, effect: rule.effect, line: this.policy.ruleLines.get(rule.id), applies: matched && !excepted, conditions };
      });
      const winner = PRECEDENCE.map((e) => rules.find((r) => r.applies && r.effect === e)).find((r) => r !== undefined);
      return {
        decision: this.decisionFor(
          this.rules.find((r) => r.id === winner?.id),
          facts,
        ),
        rules,
      };
    } catch (error) {
      return { decision: this.evaluationFailed(error), rules: [] };
    }
  }

  /**
   * The rules whose tool and caller conditions hold, indexed by effect: settled once per tool and once per
   * class of callers of it, then cached.
   */
  private narrowedFor(facts: CallFacts): Record<Effect, RuleIndex> {
    let tool = this.tools.get(facts.tool);
    if (tool === undefined || !sameTool(tool.facts, facts)) {
      const rules = this.rules
        .filter((r) => allHold(r.matchTool, facts))
        .map((rule) => ({ rule, exceptToolHolds: rule.except !== undefined && allHold(rule.exceptTool, facts) }));
      this.tools.set(facts.tool, (tool = { facts, rules, callers: new Map() }));
    }
    const callerClass = this.callerClass(facts);
    const cached = tool.callers.get(callerClass);
    if (cached !== undefined) return cached;
    const residuals: Record<Effect, ResidualRule[]> = { deny: [], approval_required: [], confirm: [], allow: [] };
    for (const { rule, exceptToolHolds } of tool.rules) {
      if (!allHold(rule.matchPrincipal, facts)) continue;
      const residual: ResidualRule = { rule };
      if (exceptToolHolds && allHold(rule.exceptPrincipal, facts)) {
        if (rule.exceptRequest.length === 0) continue; // the exception always holds: the rule never applies
        residual.except = rule.exceptRequest;
      }
      residuals[rule.effect].push(residual);
    }
    const byEffect = {
      deny: new RuleIndex(residuals.deny),
      approval_required: new RuleIndex(residuals.approval_required),
      confirm: new RuleIndex(residuals.confirm),
      allow: new RuleIndex(residuals.allow),
    };
    if (tool.callers.size >= MAX_CACHED_CALLERS) tool.callers.clear();
    tool.callers.set(callerClass, byEffect);
    return byEffect;
  }

  /**
   * The part of a caller the document can see: its subject if some rule names it, and the groups some rule
   * names. Callers alike in that are decided alike, so they share one narrowed rule set (memory stays bound
   * by the document, not by the number of callers).
   */
  private callerClass(facts: CallFacts): string {
    let key = this.namedSubjects.has(facts.subject) ? facts.subject : '';
    const groups = facts.groups.filter((g) => this.namedGroups.has(g));
    if (groups.length > 1) groups.sort();
    for (const g of groups) key += `\u0000${g}`;
    return key;
  }

  private decisionFor(rule: CompiledRule | undefined, facts: CallFacts): Decision {
    const policyVersion = this.policy.version;
    if (rule === undefined) return { effect: 'deny', ruleId: null, reason: `No rule of the policy allows ${facts.tool} for ${facts.subject}.`, policyVersion };
    return { effect: rule.effect, ruleId: rule.id, reason: rule.reason ?? defaultReason(rule), policyVersion };
  }

  private evaluationFailed(error: unknown): Decision {
    const why = error instanceof Error ? error.message : String(error);
    return { effect: 'deny', ruleId: null, reason: `The policy could not be evaluated (${why}), so the call is denied.`, policyVersion: this.policy.version };
  }
}

/** A GraphQL operation's facts once per root field (one part for anything else). */
function perField(facts: CallFacts): CallFacts[] {
  const graphql = facts.graphql;
  if (graphql === null || graphql === undefined || graphql.fields.length < 2) return [facts];
  return graphql.fields.map((field) => ({ ...facts, graphql: { ...graphql, fields: [field] } }));
}

/** The first of the strictest decisions: deny, then approval_required, then allow. */
function strictest(decisions: readonly Decision[]): Decision {
  for (const effect of PRECEDENCE) {
    const found = decisions.find((d) => d.effect === effect);
    if (found !== undefined) return found;
  }
  return decisions[0]!;
}

function sameTool(a: CallFacts, b: CallFacts): boolean {
  return (
    a.vendor === b.vendor &&
    a.readOnly === b.readOnly &&
    a.identity?.credential === b.identity?.credential &&
    a.identity?.host === b.identity?.host &&
    a.identity?.environment === b.identity?.environment
  );
}

function allHold(conditions: readonly Condition[], facts: CallFacts): boolean {
  for (const c of conditions) if (!c.test(facts)) return false;
  return true;
}

function trace(block: 'match' | 'except', c: Condition, facts: CallFacts): RuleTrace['conditions'][number] {
  return { block, key: c.key, expected: c.expected, actual: c.actual(facts), holds: c.test(facts) };
}

function defaultReason(rule: CompiledRule): string {
  if (rule.effect === 'deny') return `Rule "${rule.id}" denies this call.`;
  if (rule.effect === 'approval_required') return `Rule "${rule.id}" requires an approver to grant this call first.`;
  if (rule.effect === 'confirm') return `Rule "${rule.id}" asks the person to confirm this call first.`;
  return `Rule "${rule.id}" allows this call.`;
}
