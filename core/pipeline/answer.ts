import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Answer, Call, Produced } from '../plugin/call.js';
import { renderingPieces, type Rendering } from '../result/rendering.js';
import { LARGE_STRING_BYTES } from '../text/large-string.js';

/**
 * The value a tool's text is rendered from: the projected body wrapped with the metadata the tool reports
 * beside it (`nextPage`, `cache`), bare when there is none (the Atlassian passthroughs). The metadata comes
 * first in the text so that a page cut at the model's 40,000-character limit still says where to go next.
 */
export function renderedValue(produced: Produced): unknown {
  const meta = produced.output.meta;
  return meta === undefined ? produced.value : { ...meta, data: produced.value };
}

/** The one place a successful call becomes an MCP result: text first, structured value beside it. */
export function successAnswer(call: Call, produced: Produced): Answer {
  const { output, structured } = produced;
  // Without a render plugin the value is still shown, as JSON.
  const text = produced.text ?? joined(produced.rendering) ?? output.text ?? JSON.stringify(renderedValue(produced) ?? null, null, 2);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (output.image !== undefined) result.content.push({ type: 'image', ...output.image });
  if (structured !== undefined) {
    result.structuredContent = structured;
    // MCP 2026-07-28: a structured value that is not an object is also given as its JSON text (unless the text
    // already is exactly that), for clients that read only content. Object values keep the text alone.
    const serialized = isObject(structured) ? undefined : JSON.stringify(structured);
    if (serialized !== undefined && serialized !== text) result.content.push({ type: 'text', text: serialized });
  }
  const meta = output.resultMeta === undefined ? call.meta : { ...call.meta, ...output.resultMeta };
  if (Object.keys(meta).length > 0) result._meta = meta;
  return produced.structuredBytes === undefined ? { result } : { result, structuredBytes: produced.structuredBytes };
}

/** A rendering in pieces no truncate stage turned into text (none is loaded): shown whole. */
const joined = (rendering: Rendering | undefined): string | undefined => (rendering === undefined ? undefined : [...renderingPieces(rendering)].join(''));

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Upstream bytes a call must have read for its value to be handled as a big one: rendered and serialized in
 * pieces that are written out as they are made (core/result/json-pieces.ts) instead of held, all of them, until
 * the truncate stage. Either way the bytes are the same. 4 MiB: from 5 MiB on, the peak memory of a call falls
 * by more than half. (Below it, a JSON text that hasLargeText is made in pieces too, but all at once; when this
 * was set, at 1 MiB the pieces made a JSON call a third slower, 41.9 against 28.3 ms, on a machine whose fresh
 * pages were cheaper.)
 */
export const BIG_VALUE_BYTES = 4 * 1024 * 1024;

/**
 * Whether the stages after the handler (render, truncate, spill) should hand this call's value on in pieces.
 * Judged by the body bytes the call read, known without walking the value.
 */
export function isBigValue(call: Call): boolean {
  return (call.bodyLease?.held ?? 0) > BIG_VALUE_BYTES;
}

/**
 * How much longer JSON pretty-printed with an indent of 2 is than the body it came from: 1.36x for a Jira search
 * page, 1.2x for a workflow-runs page. The lower end: a text is rendered in pieces only when it surely is large
 * (below the line, pieces cost 1.5x what one JSON.stringify does).
 */
const PRETTY_JSON_GROWTH = 1.2;

/**
 * Whether this call's JSON text should be rendered in pieces (made at once, not as they are consumed) rather
 * than one string: when that string would be a large one (core/text/large-string.ts), judged from the text the
 * body took (a 100 KB Jira page with curly quotes: 139K characters of UTF-16). JSON.stringify builds its text as
 * a chain of parts, flattened into one such string by the first search or write of it (the 1.4 M characters of
 * a 1 MiB Jira page's JSON: 7 ms, most of the scrub of the text, of a 37 ms call; a 100 KB page's: 0.4-0.7 ms in
 * pieces against 1.6-2.3 ms whole). Below, one JSON.stringify is 1.5x faster.
 */
export function hasLargeText(call: Call): boolean {
  return (call.bodyLease?.textBytes ?? 0) * PRETTY_JSON_GROWTH > LARGE_STRING_BYTES;
}
