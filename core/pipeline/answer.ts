import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Answer, Call, Produced } from '../plugin/call.js';
import { renderingPieces, type Rendering } from '../result/rendering.js';

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
