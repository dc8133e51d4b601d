import type { CallToolResult } from '@modelcontextprotocol/server';
import { ToolError } from '../errors/tool-error.js';
import type { CallContext } from '../plugin/call-context.js';
import type { Scrub } from './secret-scrubber.js';
import { renderingPieces, type Rendering } from './rendering.js';

/**
 * How a call becomes an MCP result, in one place: a success (text first, structured value beside it, the
 * value rendered with the tool's metadata) or an error (one layout for every error, scrubbed and capped).
 */

/**
 * The value a tool's text is rendered from: the projected body wrapped with the metadata the tool reports
 * beside it (`nextPage`, `cache`), bare when there is none (the Atlassian passthroughs). The metadata comes
 * first in the text so that a page cut at the model's 40,000-character limit still says where to go next.
 */
export function renderedValue(ctx: CallContext): unknown {
  const meta = ctx.output?.meta;
  return meta === undefined ? ctx.value : { ...meta, data: ctx.value };
}

/** The one place a successful call becomes an MCP result: text first, structured value beside it. */
export function successResult(ctx: CallContext): CallToolResult {
  // Without a render plugin the value is still shown, as JSON.
  const text = ctx.text ?? joined(ctx.rendering) ?? ctx.output?.text ?? JSON.stringify(renderedValue(ctx) ?? null, null, 2);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (ctx.output?.image !== undefined) result.content.push({ type: 'image', ...ctx.output.image });
  if (ctx.structured !== undefined) {
    result.structuredContent = ctx.structured;
    // MCP 2026-07-28: a structured value that is not an object is also given as its JSON text (unless the text
    // already is exactly that), for clients that read only content. Object values keep the text alone.
    const serialized = isObject(ctx.structured) ? undefined : JSON.stringify(ctx.structured);
    if (serialized !== undefined && serialized !== text) result.content.push({ type: 'text', text: serialized });
  }
  if (Object.keys(ctx.meta).length > 0) result._meta = ctx.meta;
  return result;
}

/** A rendering in pieces no truncate stage turned into text (none is loaded): shown whole. */
const joined = (rendering: Rendering | undefined): string | undefined => (rendering === undefined ? undefined : [...renderingPieces(rendering)].join(''));

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Upstream error bodies are capped so that one bad response cannot flood the model's context. */
export const UPSTREAM_BODY_CAP_BYTES = 4096;

/**
 * Pretty-prints a JSON body, keeps any other text as is, scrubs it, and caps it at UPSTREAM_BODY_CAP_BYTES of
 * UTF-8. Scrubbed after printing (a secret JSON-escaped in the body is whole there) and before the cut.
 */
export function capUpstreamBody(body: string, scrub: Scrub = (text) => text): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object') text = JSON.stringify(parsed, null, 2);
  } catch {
    // not JSON: shown as the upstream sent it
  }
  text = scrub(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= UPSTREAM_BODY_CAP_BYTES) return text;
  // Cut on a character boundary: decoding a byte-cut buffer would leave a replacement character.
  let kept = Buffer.from(text, 'utf8').subarray(0, UPSTREAM_BODY_CAP_BYTES).toString('utf8');
  if (kept.endsWith('\uFFFD')) kept = kept.slice(0, -1);
  return `${kept}\n... (truncated: ${bytes} bytes in all)`;
}

/**
 * The one layout of every error result's text (the Bitbucket reference server's, plus the code). The message
 * and the upstream body are scrubbed before the body is capped: a cut must not leave the head of a secret.
 */
export function renderErrorText(error: ToolError, scrub: Scrub = (text) => text): string {
  const lines = [`Error: ${scrub(error.message)}`, `Code: ${error.code}`];
  if (error.status !== undefined) lines.push(`HTTP Status: ${error.status}`);
  if (error.retryAfterSeconds !== undefined) lines.push(`Retry After: ${error.retryAfterSeconds} seconds`);
  if (error.upstreamBody !== undefined && error.upstreamBody.trim() !== '') {
    lines.push('', 'Raw API Response:', capUpstreamBody(error.upstreamBody, scrub));
  }
  return lines.join('\n');
}

export function errorResult(error: ToolError, meta: Record<string, unknown>, scrub?: Scrub): CallToolResult {
  const merged = { ...meta, ...error.meta };
  const result: CallToolResult = { content: [{ type: 'text', text: renderErrorText(error, scrub) }], isError: true };
  if (Object.keys(merged).length > 0) result._meta = merged;
  return result;
}
