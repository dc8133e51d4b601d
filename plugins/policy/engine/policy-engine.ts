import type { LoadedPolicy, RuleSpec } from '../document/policy-document.js';
import type { CallFacts } from './call-facts.js';
import { compileConditions, type Condition } from './conditions.js';

export type Effect = 'allow' | 'deny' | 'approval_required';

/** The decision object of `_meta.decision`, the audit log and `policy explain`. */
export interface Decision {
  effect: Effect;
  /** The rule that decided, or null for the default deny (and an evaluation error). */
  ruleId: string | null;
  reason: string;
  policyVersion: string;
  approvalId?: string;
  expiresAt?: string;
}

interface CompiledRule {
  id: string;
  effect: Effect;
  reason?: string;
  match: Condition[];
  except?: Condition[];
}

/** A rule narrowed to one (tool, caller): only its request conditions are left to evaluate. */
interface ResidualRule {
  rule: CompiledRule;
  match: Condition[];
  /** Request conditions of `except`; undefined when `except` cannot hold for this tool and caller. */
  except?: Condition[];
}

type Buckets = Record<Effect, ResidualRule[]>;

export interface RuleTrace {
  id: string;
  effect: Effect;
  line?: number;
  applies: boolean;
  conditions: Array<{ block: 'match' | 'except'; key: string; expected: string; actual: string; holds: boolean }>;
}

/** Deny beats approval_required beats allow; what no rule allows is denied. */
const PRECEDENCE: readonly Effect[] = ['deny', 'approval_required', 'allow'];
const MAX_CACHED_CALLERS = 10_000;

/**
 * A compiled policy. `decide` is the server's hot path: rules are narrowed once per (tool, caller) to those
 * that can still apply, bucketed by effect, so a call evaluates only request conditions of a few rules.
 * `explain` evaluates every condition of every rule; both pick the deciding rule the same way.
 */
export class PolicyEngine {
  private readonly rules: CompiledRule[];
  private readonly narrowed = new Map<string, Buckets>();

  constructor(readonly policy: LoadedPolicy) {
    this.rules = policy.document.rules.map(compileRule);
  }

  get version(): string {
    return this.policy.version;
  }

  decide(facts: CallFacts): Decision {
    try {
      const buckets = this.bucketsFor(facts);
      for (const effect of PRECEDENCE) {
        for (const r of buckets[effect]) {
          if (allHold(r.match, facts) && !(r.except !== undefined && allHold(r.except, facts))) return this.decisionFor(r.rule, facts);
        }
      }
      return this.decisionFor(undefined, facts);
    } catch (error) {
      return this.evaluationFailed(error);
    }
  }

  /** Every rule with each condition's outcome, and the decision they lead to. */
  explain(facts: CallFacts): { decision: Decision; rules: RuleTrace[] } {
    try {
      const rules = this.rules.map((rule): RuleTrace => {
        const conditions = [
          ...rule.match.map((c) => trace('match', c, facts)),
          ...(rule.except ?? []).map((c) => trace('except', c, facts)),
        ];
        const matched = conditions.filter((c) => c.block === 'match').every((c) => c.holds);
        const excepted = rule.except !== undefined && conditions.filter((c) => c.block === 'except').every((c) => c.holds);
        return { id: rule.id, effect: rule.effect, line: this.policy.ruleLines.get(rule.id), applies: matched && !excepted, conditions };
      });
      const winner = PRECEDENCE.map((e) => rules.find((r) => r.applies && r.effect === e)).find((r) => r !== undefined);
      return { decision: this.decisionFor(this.rules.find((r) => r.id === winner?.id), facts), rules };
    } catch (error) {
      return { decision: this.evaluationFailed(error), rules: [] };
    }
  }

  private bucketsFor(facts: CallFacts): Buckets {
    const id = facts.identity;
    const key = [facts.tool, facts.vendor, facts.readOnly, id?.credential, id?.host, id?.environment, facts.subject, facts.groups.join('\u0001')].join('\u0000');
    let buckets = this.narrowed.get(key);
    if (buckets === undefined) {
      buckets = { deny: [], approval_required: [], allow: [] };
      for (const rule of this.rules) {
        const residual = narrow(rule, facts);
        if (residual !== undefined) buckets[rule.effect].push(residual);
      }
      if (this.narrowed.size >= MAX_CACHED_CALLERS) this.narrowed.clear();
      this.narrowed.set(key, buckets);
    }
    return buckets;
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

function compileRule(spec: RuleSpec): CompiledRule {
  const rule: CompiledRule = { id: spec.id, effect: spec.effect, match: compileConditions(spec.match) };
  if (spec.reason !== undefined) rule.reason = spec.reason;
  if (spec.except !== undefined) rule.except = compileConditions(spec.except);
  return rule;
}

/** Settles tool and caller conditions; undefined when the rule cannot apply to this tool and caller. */
function narrow(rule: CompiledRule, facts: CallFacts): ResidualRule | undefined {
  if (!rule.match.every((c) => c.level === 'request' || c.test(facts))) return undefined;
  const residual: ResidualRule = { rule, match: rule.match.filter((c) => c.level === 'request') };
  if (rule.except !== undefined && rule.except.every((c) => c.level === 'request' || c.test(facts))) {
    const left = rule.except.filter((c) => c.level === 'request');
    if (left.length === 0) return undefined; // the exception always holds: the rule never applies
    residual.except = left;
  }
  return residual;
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
  return `Rule "${rule.id}" allows this call.`;
}
