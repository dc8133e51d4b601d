import type { CallToolResult } from '@modelcontextprotocol/server';
import { ToolError } from '../errors/tool-error.js';
import type { Scrub } from './secret-scrubber.js';

/** How an error becomes an MCP result: one layout for every error, scrubbed and capped (successes: core/pipeline/answer.ts). */

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
