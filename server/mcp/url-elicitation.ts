import { randomUUID } from 'node:crypto';
import type { ElicitRequestURLParams, ElicitResult, Server } from '@modelcontextprotocol/server';
import type { AskToOpen } from '../../core/plugin/call.js';

/** What a `tools/call` handler's context offers for asking the client (the SDK's push-style elicitation). */
interface ElicitingContext {
  mcpReq: { elicitInput(params: ElicitRequestURLParams): Promise<ElicitResult> };
}

/**
 * URL-mode elicitation (MCP 2025-11-25) for a call, when its client can take it: a 2025-era connection whose
 * client declared `elicitation: { url: {} }`. The URL goes to the person through `elicitation/create`, never
 * into a result the model reads. A 2026-07-28 request gets none: that revision replaced server-to-client
 * requests with input_required results, which this server does not send; its clients keep the sentence.
 */
export function askToOpenOf(server: Server, ctx: ElicitingContext, modern: boolean): AskToOpen | undefined {
  if (modern || server.getClientCapabilities()?.elicitation?.url === undefined) return undefined;
  return async ({ message, url }) => {
    const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId: randomUUID() });
    return answer.action;
  };
}
