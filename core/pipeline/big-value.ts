import type { CallContext } from './call-context.js';

/**
 * Upstream bytes a call must have read for its value to be handled as a big one: rendered and serialized in
 * pieces that are written out as they are made (core/result/json-pieces.ts) instead of whole strings. Below
 * it, the native one-shot JSON.stringify is faster and its garbage is small; above it, the whole strings are
 * what sets the peak memory of the call. Either way the bytes are the same. 4 MiB, not less: at 1 MiB the
 * pieces made a JSON call a third slower (jira_get of a 1 MiB page, 41.9 against 28.3 ms, interleaved) and
 * saved little memory, while from 5 MiB on they cost nothing measurable and the peak falls by more than half.
 */
export const BIG_VALUE_BYTES = 4 * 1024 * 1024;

/**
 * Whether the stages after the handler (render, truncate, spill) should hand this call's value on in pieces.
 * Judged by the body bytes the call read, known without walking the value.
 */
export function isBigValue(ctx: CallContext): boolean {
  return (ctx.bodyLease?.held ?? 0) > BIG_VALUE_BYTES;
}
