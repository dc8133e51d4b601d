/** One argument of a held call as an approver sees it: its value, folded when it is long. */
export interface ArgumentRow {
  key: string;
  /** The value as compact JSON, cut to FOLD_CHARS when `full` is given. */
  text: string;
  /** The whole value, pretty-printed, when `text` is cut ("show all"). */
  full?: string;
  /** Whether the whole value is hidden from approvers ("[REDACTED]"). */
  redacted: boolean;
}

/** A value longer than this is shown cut, with the whole of it one click away. */
export const FOLD_CHARS = 160;
const REDACTED = '"[REDACTED]"';

/**
 * The rows of a held call's arguments: each top-level argument with its value as the call will send it
 * (`body {"branch":"main"}`), from the preview the approvals store kept, in which what a rule or
 * MCP_APPROVAL_REDACT marks redacted, and anything secret, is already `[REDACTED]` (the console never sees it).
 */
export function argumentRows(argumentsJson: string): ArgumentRow[] | { unavailable: string } {
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    // A record made before previews were kept as JSON (cut at 4 KiB) is not JSON any more.
    return { unavailable: 'The arguments are too large to show here; use `mcp-devtools approvals show ID`.' };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return [{ key: '(arguments)', text: JSON.stringify(args), redacted: false }];
  return Object.entries(args).map(([key, value]) => {
    const text = JSON.stringify(value) ?? 'undefined';
    if (text === REDACTED) return { key, text: 'redacted', redacted: true };
    if (text.length <= FOLD_CHARS) return { key, text, redacted: false };
    return { key, text: `${text.slice(0, FOLD_CHARS)}...`, full: JSON.stringify(value, null, 2), redacted: false };
  });
}
