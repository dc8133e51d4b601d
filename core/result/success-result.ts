import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallContext } from '../pipeline/call-context.js';
import { renderedValue } from './rendered-value.js';

/** The one place a successful call becomes an MCP result: text first, structured value beside it. */
export function successResult(ctx: CallContext): CallToolResult {
  // Without a render plugin the value is still shown, as JSON.
  const text = ctx.text ?? ctx.output?.text ?? JSON.stringify(renderedValue(ctx) ?? null, null, 2);
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

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
