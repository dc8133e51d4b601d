import type { CallContext } from './call-context.js';

/**
 * Upstream bytes a call must have read for its value to be handled as a big one: rendered and serialized in
 * pieces that are written out as they are made (core/result/json-pieces.ts) instead of held, all of them, until
 * the truncate stage. Either way the bytes are the same. 4 MiB: from 5 MiB on, the peak memory of a call falls
 * by more than half. (Below it, a JSON text of more than LARGE_TEXT_BYTES of body is made in pieces too, but all
 * at once; when this was set, at 1 MiB the pieces made a JSON call a third slower, 41.9 against 28.3 ms, on a
 * machine whose fresh pages were cheaper.)
 */
export const BIG_VALUE_BYTES = 4 * 1024 * 1024;

/**
 * Whether the stages after the handler (render, truncate, spill) should hand this call's value on in pieces.
 * Judged by the body bytes the call read, known without walking the value.
 */
export function isBigValue(ctx: CallContext): boolean {
  return (ctx.bodyLease?.held ?? 0) > BIG_VALUE_BYTES;
}

/**
 * Upstream bytes from which a call's JSON text is rendered in pieces too (made at once, not as they are
 * consumed): its whole text would be a string of more than 128 KiB, which V8 keeps in its large-object space on
 * memory mapped afresh for each string. JSON.stringify builds its text as a chain of parts, flattened into one
 * such string by the first search or write of it; on this machine that costs about 17 us a page of 4 KiB (the
 * 1.4 M characters of a 1 MiB Jira page's JSON: 7 ms, most of the scrub of the text, of a 37 ms call).
 */
export const LARGE_TEXT_BYTES = 128 * 1024;

/** Whether this call's body is large enough that its JSON text should never be made one string. */
export function hasLargeText(ctx: CallContext): boolean {
  return (ctx.bodyLease?.held ?? 0) > LARGE_TEXT_BYTES;
}
