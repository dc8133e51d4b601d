import type { RuleSpec } from '../document/policy-document.js';
import { compileConditions, type Condition, type IndexHint } from './conditions.js';

export type Effect = 'allow' | 'deny' | 'approval_required' | 'confirm';

/**
 * A rule ready for the hot path: its conditions split by when their answer can change, and the one request
 * condition (if any) under which the rule index files it.
 */
export interface CompiledRule {
  /** Position in the document: among rules of one effect, the first that applies decides. */
  pos: number;
  id: string;
  effect: Effect;
  reason?: string;
  match: Condition[];
  except?: Condition[];
  matchTool: Condition[];
  matchPrincipal: Condition[];
  matchRequest: Condition[];
  exceptTool: Condition[];
  exceptPrincipal: Condition[];
  exceptRequest: Condition[];
  indexedBy?: IndexHint;
}

export function compileRule(spec: RuleSpec, pos: number): CompiledRule {
  const match = compileConditions(spec.match);
  const except = spec.except === undefined ? undefined : compileConditions(spec.except);
  const at = (conditions: Condition[] | undefined, level: Condition['level']): Condition[] => (conditions ?? []).filter((c) => c.level === level);
  const matchRequest = at(match, 'request');
  // An argument is usually the more selective key (a project, a repository); a path prefix is often shared.
  const indexedBy = matchRequest.find((c) => c.index?.kind === 'arg')?.index ?? matchRequest.find((c) => c.index?.kind === 'path')?.index;
  return {
    pos,
    id: spec.id,
    effect: spec.effect,
    ...(spec.reason !== undefined ? { reason: spec.reason } : {}),
    match,
    ...(except !== undefined ? { except } : {}),
    matchTool: at(match, 'tool'),
    matchPrincipal: at(match, 'principal'),
    matchRequest,
    exceptTool: at(except, 'tool'),
    exceptPrincipal: at(except, 'principal'),
    exceptRequest: at(except, 'request'),
    ...(indexedBy !== undefined ? { indexedBy } : {}),
  };
}
