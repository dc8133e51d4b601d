import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { UpstreamResponse } from '../../core/http/types.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';

export interface PassthroughBehaviour {
  /** Bitbucket keeps any `text/plain` body as a string, even one that would parse as JSON. */
  plainTextStaysText: boolean;
  /** Which settings hold the credentials, added to a 401 so the fix is named. */
  credentialsHint(): string;
}

/** Sends the route the validate stage computed and turns the response into the reference servers' value. */
export async function callPassthrough(client: UpstreamClient, ctx: ToolContext, behaviour: PassthroughBehaviour): Promise<ToolOutput> {
  let response: UpstreamResponse;
  try {
    response = await client.send(ctx, ctx.route, { expect: 'lenient' });
  } catch (error) {
    if (error instanceof ToolError && error.status === 401) {
      throw new ToolError(error.code, `${error.message} ${behaviour.credentialsHint()}`, {
        status: error.status,
        upstreamBody: error.upstreamBody,
        meta: error.meta,
        cause: error,
      });
    }
    throw error;
  }
  return referenceValue(response, behaviour.plainTextStaysText);
}

/**
 * The value the reference servers render: 204 or a blank body is `{}`; JSON is parsed; any other body stays a
 * string (Jira and Confluence ignore Content-Type; Bitbucket keeps `text/plain` as is, blank included). The
 * reference saves a raw file only for JSON bodies, so only those may name a saved file when truncated.
 */
export function referenceValue(response: UpstreamResponse, plainTextStaysText: boolean): ToolOutput {
  const contentType = response.headers.get('content-type') ?? '';
  if (plainTextStaysText && response.status !== 204 && contentType.includes('text/plain')) return { value: response.text, saveTruncated: false };
  if (response.kind === 'empty') return { value: {}, saveTruncated: false };
  return { value: response.body, saveTruncated: response.kind === 'json' };
}
