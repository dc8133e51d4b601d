import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type InputRequiredResult,
  type Server,
} from '@modelcontextprotocol/server';
import type { AskToConfirm, AskToOpen } from '../../core/plugin/call.js';

/** The key of the link request in a 2026-07-28 `input_required` result, and of its answer in the retried call. */
const LINK_INPUT = 'open-link';

/** What a `tools/call` handler's context offers for asking the client. */
interface ElicitingContext {
  mcpReq: {
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    elicitInput(params: ElicitRequestURLParams | ElicitRequestFormParams): Promise<ElicitResult>;
  };
}

/** What one call may ask the person, and what the call must answer instead of its result (2026-07-28). */
export interface Elicitation {
  /** URL mode: absent when the client did not declare `elicitation.url`. */
  askToOpen?: AskToOpen;
  /** Form mode, a yes or no: absent when the client did not declare it, or cannot be asked mid-call. */
  askToConfirm?: AskToConfirm;
  /** An `input_required` result asking the person to open the URL, once the call asked for one this round. */
  inputRequired(): InputRequiredResult | undefined;
}

/** A 2025-era client's elicitation capability, as `initialize` declared it. */
interface ElicitationCapability {
  form?: unknown;
  url?: unknown;
}

/**
 * Form mode is declared by `elicitation: { form: {} }`, or by an empty `elicitation: {}` (MCP 2025-06-18,
 * before modes existed, which 2025-11-25 reads as form).
 */
function takesForm(capability: ElicitationCapability | undefined): boolean {
  if (capability === undefined) return false;
  return capability.form !== undefined || capability.url === undefined;
}

/**
 * What a call may ask the person, past the model, by the client's declared elicitation capability.
 *
 * - A 2025-era connection (stdio): `elicitation/create` (mode `url`, or mode `form` for a yes or no), pushed
 *   on the request's channel, and the person's answer awaited. A stateless Streamable HTTP POST knows no
 *   capabilities, so gets none.
 * - A 2026-07-28 request (capabilities in its `_meta`): that revision has no server-to-client requests; a URL
 *   is asked by answering `input_required` instead of the result, the client asks the person and retries the
 *   call with their answer, which this reads back. A yes or no is not asked that way yet (the policy holds
 *   the call for an approver instead).
 */
export function elicitationOf(server: Server, ctx: ElicitingContext, modern: boolean): Elicitation {
  if (!modern) {
    const capability = server.getClientCapabilities()?.elicitation as ElicitationCapability | undefined;
    return {
      ...(capability?.url !== undefined && {
        askToOpen: async ({ message, url }) => (await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId: randomUUID() })).action,
      }),
      ...(takesForm(capability) && {
        // No field to fill: the person's accept or decline is the answer.
        askToConfirm: async ({ message }) =>
          (await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } })).action,
      }),
      inputRequired: () => undefined,
    };
  }
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: ElicitationCapability } | undefined;
  if (capabilities?.elicitation?.url === undefined) return { inputRequired: () => undefined };
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
