import { setDataMember } from '../../../core/result/data-member.js';
import type { Scrub } from '../../../core/result/secret-scrubber.js';
import { normalizedArgs } from './approval-binding.js';
import { isCredentialName } from './credential-names.js';
import { REDACTED, withoutTokens } from './secret-shaped.js';

/** What an approver sees of a held call's arguments (console, CLI, admin endpoint, webhook events). */
export interface ArgumentPreview {
  /** The arguments as JSON, always valid JSON: values as the call will send them, less what is hidden or cut. */
  json: string;
  /** The argument paths (dotted, `body.token`) whose value was hidden whole or in part, in the order met. */
  redacted: string[];
  /** The tool's free-form maps this call fills (`parameters`): their values are shown to approvers, never to receivers. */
  withheld: string[];
}

export interface PreviewRules {
  /** Dotted argument paths never shown (a rule's `redact` and MCP_APPROVAL_REDACT); `*` stands for any one key. */
  redact: readonly string[];
  /** The server's scrubber: every configured secret, in every form it travels in. */
  scrub: Scrub;
  /** The dotted paths of the tool's free-form maps (free-form-maps.ts), whose values webhook receivers are not sent. */
  maps?: readonly string[];
}

/** A string longer than this is cut, saying how long it was: an approver reads the start of a 1 MB body. */
const MAX_STRING_CHARS = 4000;
const MAX_ITEMS = 200;
const MAX_DEPTH = 10;
/** The whole preview is kept under this; past it, strings are cut shorter, then the preview says it is too large. */
const MAX_PREVIEW_CHARS = 64 * 1024;

/**
 * The preview of a call's arguments that approvals keep and show: the values the call will send, by default,
 * except those a rule or setting marks redacted, every value under a name that names a credential (a key, or
 * the name of a name and value pair), a secured variable's, and every secret (the server's own, scrubbed as in
 * results, and token-shaped strings), each replaced by `[REDACTED]`.
 * Made once when the call is held, so a hidden value never reaches the store, a page, the CLI or a webhook.
 */
export function argumentPreview(args: Record<string, unknown>, rules: PreviewRules): ArgumentPreview {
  const redact = rules.redact.map((p) => p.split('.'));
  for (const limit of [MAX_STRING_CHARS, 200]) {
    const redacted = new Set<string>();
    const value = walk(normalizedArgs(args), [], 0, { redact, scrub: rules.scrub, redacted, limit });
    const json = JSON.stringify(value);
    if (json.length <= MAX_PREVIEW_CHARS) return { json, redacted: [...redacted], withheld: filledMaps(args, rules.maps ?? []) };
  }
  const size = JSON.stringify(normalizedArgs(args)).length;
  return { json: JSON.stringify({ '...': `The arguments are ${size} characters, too large to preview.` }), redacted: [], withheld: [] };
}

interface Walk {
  redact: string[][];
  scrub: Scrub;
  redacted: Set<string>;
  limit: number;
}

function walk(value: unknown, path: string[], depth: number, w: Walk): unknown {
  if (path.length > 0 && (w.redact.some((r) => covers(r, path)) || isCredentialName(path[path.length - 1]!))) {
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
  const secretValue = isSecretPair(value as Record<string, unknown>);
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, key];
    if (secretValue && key === 'value') {
      w.redacted.add(at.join('.'));
      setDataMember(out, key, REDACTED);
    } else setDataMember(out, withoutTokens(w.scrub(key)), walk(child, at, depth + 1, w));
  }
  return out;
}

/**
 * Whether an object is a name and value pair whose value is secret: a variable Bitbucket keeps `secured`, or
 * a pair named like a credential (`{"key": "DB_PASS", "value": ...}`, `{"name": "Authorization", "value": ...}`),
 * as variables, headers and environment variables are sent.
 */
function isSecretPair(item: Record<string, unknown>): boolean {
  if (!Object.hasOwn(item, 'value')) return false;
  if (item.secured === true) return true;
  const name = Object.hasOwn(item, 'key') ? item.key : Object.hasOwn(item, 'name') ? item.name : undefined;
  return typeof name === 'string' && isCredentialName(name);
}

/** The maps of `maps` the call fills, as dotted paths. */
function filledMaps(args: Record<string, unknown>, maps: readonly string[]): string[] {
  return maps.filter((map) => {
    let at: unknown = args;
    for (const key of map.split('.')) at = at !== null && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
    return at !== null && typeof at === 'object' && Object.keys(at).length > 0;
  });
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
