import { setDataMember } from '../../../core/result/data-member.js';
import type { Scrub } from '../../../core/result/secret-scrubber.js';
import { normalizedArgs } from './approval-binding.js';
import { isSecretKey, REDACTED, withoutTokens } from './secret-shaped.js';

/** What an approver sees of a held call's arguments (console, CLI, admin endpoint, webhook events). */
export interface ArgumentPreview {
  /** The arguments as JSON, always valid JSON: values as the call will send them, less what is hidden or cut. */
  json: string;
  /** The argument paths (dotted, `body.token`) whose value was hidden whole or in part, in the order met. */
  redacted: string[];
}

export interface PreviewRules {
  /** Dotted argument paths never shown (a rule's `redact` and MCP_APPROVAL_REDACT); `*` stands for any one key. */
  redact: readonly string[];
  /** The server's scrubber: every configured secret, in every form it travels in. */
  scrub: Scrub;
}

/** A string longer than this is cut, saying how long it was: an approver reads the start of a 1 MB body. */
const MAX_STRING_CHARS = 4000;
const MAX_ITEMS = 200;
const MAX_DEPTH = 10;
/** The whole preview is kept under this; past it, strings are cut shorter, then the preview says it is too large. */
const MAX_PREVIEW_CHARS = 64 * 1024;

/**
 * The preview of a call's arguments that approvals keep and show: the values the call will send, by default,
 * except those a rule or setting marks redacted, every value under a key named like a credential, and every
 * secret (the server's own, scrubbed as in results, and token-shaped strings), each replaced by `[REDACTED]`.
 * Made once when the call is held, so a hidden value never reaches the store, a page, the CLI or a webhook.
 */
export function argumentPreview(args: Record<string, unknown>, rules: PreviewRules): ArgumentPreview {
  const redact = rules.redact.map((p) => p.split('.'));
  for (const limit of [MAX_STRING_CHARS, 200]) {
    const redacted = new Set<string>();
    const value = walk(normalizedArgs(args), [], 0, { redact, scrub: rules.scrub, redacted, limit });
    const json = JSON.stringify(value);
    if (json.length <= MAX_PREVIEW_CHARS) return { json, redacted: [...redacted] };
  }
  const size = JSON.stringify(normalizedArgs(args)).length;
  return { json: JSON.stringify({ '...': `The arguments are ${size} characters, too large to preview.` }), redacted: [] };
}

interface Walk {
  redact: string[][];
  scrub: Scrub;
  redacted: Set<string>;
  limit: number;
}

function walk(value: unknown, path: string[], depth: number, w: Walk): unknown {
  if (path.length > 0 && (w.redact.some((r) => covers(r, path)) || isSecretKey(path[path.length - 1]!))) {
    w.redacted.add(path.join('.'));
    return REDACTED;
  }
  if (typeof value === 'string') {
    const clean = withoutTokens(w.scrub(value));
    if (clean !== value) w.redacted.add(path.join('.'));
    return clean.length > w.limit ? `${clean.slice(0, w.limit)}... (${clean.length} characters)` : clean;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '(nested deeper than the preview shows)';
  if (Array.isArray(value)) {
    // An array's items are found under the array's own path: `body.labels` covers every label.
    const items = value.slice(0, MAX_ITEMS).map((item) => walk(item, path, depth + 1, w));
    return value.length > MAX_ITEMS ? [...items, `... ${value.length - MAX_ITEMS} more items`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) setDataMember(out, withoutTokens(w.scrub(key)), walk(child, [...path, key], depth + 1, w));
  return out;
}

/** Whether a redact path names `path` or something above it (`body` covers `body.fields.summary`). */
function covers(rule: readonly string[], path: readonly string[]): boolean {
  return rule.length <= path.length && rule.every((segment, i) => segment === '*' || segment === path[i]);
}

/** The comma-separated paths of MCP_APPROVAL_REDACT. */
export function redactPaths(setting: string): string[] {
  return setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
