import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ElicitRequestURLParams,
  type ElicitResult,
  type InputRequiredResult,
  type Server,
} from '@modelcontextprotocol/server';
import type { AskToOpen } from '../../core/plugin/call.js';

/** The key of the link request in a 2026-07-28 `input_required` result, and of its answer in the retried call. */
const LINK_INPUT = 'open-link';

/** What a `tools/call` handler's context offers for asking the client. */
interface ElicitingContext {
  mcpReq: {
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    elicitInput(params: ElicitRequestURLParams): Promise<ElicitResult>;
  };
}

/** URL-mode elicitation for one call, and what the call must answer instead of its result (2026-07-28). */
export interface UrlElicitation {
  askToOpen: AskToOpen;
  /** An `input_required` result asking the person to open the URL, once the call asked for one this round. */
  inputRequired(): InputRequiredResult | undefined;
}

/**
 * URL-mode elicitation for a call, when its client declared `elicitation: { url: {} }`; the URL goes to the
 * person, never into a result the model reads.
 *
 * - A 2025-era connection (stdio): `elicitation/create` with `mode: "url"`, pushed on the request's channel,
 *   and the person's answer awaited. A stateless Streamable HTTP POST knows no capabilities, so gets none.
 * - A 2026-07-28 request (capabilities in its `_meta`): that revision has no server-to-client requests; the
 *   call answers `input_required` with the URL request instead of its result, the client asks the person and
 *   retries the call with their answer, which this reads back.
 */
export function urlElicitationOf(server: Server, ctx: ElicitingContext, modern: boolean): UrlElicitation | undefined {
  if (!modern) {
    if (server.getClientCapabilities()?.elicitation?.url === undefined) return undefined;
    return {
      askToOpen: async ({ message, url }) => (await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId: randomUUID() })).action,
      inputRequired: () => undefined,
    };
  }
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
  if (capabilities?.elicitation?.url === undefined) return undefined;
  let asked: { message: string; url: string } | undefined;
  return {
    askToOpen: async (request) => {
      // The retried call carries the person's answer (client-made: it picks a sentence, and decides nothing else).
      const answered = inputResponse(ctx.mcpReq.inputResponses, LINK_INPUT);
      if (answered.kind === 'elicit') return answered.action;
      asked = request;
      return 'accept';
    },
    inputRequired: () => (asked === undefined ? undefined : inputRequired({ inputRequests: { [LINK_INPUT]: inputRequired.elicitUrl(asked) } })),
  };
}
