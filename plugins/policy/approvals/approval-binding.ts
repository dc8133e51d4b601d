import { renderingArgs } from '../../../core/schema/common-args.js';
import type { Principal } from '../../../core/identity/principal.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { PublicIdentity } from '../engine/call-facts.js';

/** What an approval is for: one caller, one tool, one set of arguments, under one policy version. */
export interface ApprovalSubject {
  principal: Principal;
  tool: string;
  /** The validated arguments (schema defaults applied). */
  args: Record<string, unknown>;
  policyVersion: string;
  /** The upstream request, shown to approvers. */
  request?: { method: string; path: string };
  /** The upstream identity that will act (shown to approvers; not part of the binding). */
  identity?: PublicIdentity | null;
  /** Argument paths the holding rule keeps from approvers (its `redact`). */
  redact?: readonly string[];
  /** The tool's free-form maps (free-form-maps.ts): their values are shown to approvers, not to webhook receivers. */
  maps?: readonly string[];
}

const PRESENTATION_ONLY = new Set(Object.keys(renderingArgs));

/**
 * The arguments an approval is bound to: the validated ones without `jq` and `outputFormat`, which change
 * only how the answer is shown, never what is done upstream.
 */
export function normalizedArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => !PRESENTATION_ONLY.has(k)));
}

export function argsHash(args: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(normalizedArgs(args)));
}

/** One key per (caller, tool, arguments, policy version): a retry finds its approval, anything else does not. */
export function bindingKey(subject: ApprovalSubject): string {
  return sha256Hex(canonicalJson([subject.principal.via, subject.principal.subject, subject.tool, argsHash(subject.args), subject.policyVersion]));
}
