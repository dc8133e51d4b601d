import { nodeCrypto } from '../../core/node-crypto.js';
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
import type { AskToConfirm, AskToOpen, ConfirmByRetry } from '../../core/plugin/call.js';

/** The key of the link request in a 2026-07-28 `input_required` result, and of its answer in the retried call. */
const LINK_INPUT = 'open-link';
/** The key of a policy's yes-or-no question in a 2026-07-28 `input_required` result, and of its answer. */
const CONFIRM_INPUT = 'confirm-call';

/** What a `tools/call` handler's context offers for asking the client. */
interface ElicitingContext {
  mcpReq: {
    envelope?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState(): unknown;
    elicitInput(params: ElicitRequestURLParams | ElicitRequestFormParams): Promise<ElicitResult>;
  };
}

/** What one call may ask the person, and what the call must answer instead of its result (2026-07-28). */
export interface Elicitation {
  /** URL mode: absent when the client did not declare `elicitation.url`. */
  askToOpen?: AskToOpen;
  /** Form mode, a yes or no: absent when the client did not declare it, or cannot be asked mid-call. */
  askToConfirm?: AskToConfirm;
  /** A yes or no asked across a retry (2026-07-28): absent when the client did not declare form mode in the request. */
  confirmByRetry?: ConfirmByRetry;
  /** An `input_required` result asking the person what the call asked this round (a URL to open, a yes or no). */
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
 *   call with their answer, which this reads back. A yes or no (form mode) is asked the same way, with a
 *   `requestState` the policy minted for exactly that question, which the retry echoes and the policy verifies.
 */
export function elicitationOf(server: Server, ctx: ElicitingContext, modern: boolean): Elicitation {
  if (!modern) {
    const capability = server.getClientCapabilities()?.elicitation as ElicitationCapability | undefined;
    return {
      ...(capability?.url !== undefined && {
        askToOpen: async ({ message, url }) => (await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId: nodeCrypto().randomUUID() })).action,
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
  const capability = capabilities?.elicitation;
  let askedToOpen: { message: string; url: string } | undefined;
  let askedToConfirm: { message: string; state: string } | undefined;
  // The retried call's answer to the question, with the state echoed: the policy checks the state before it counts.
  const confirmAnswer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_INPUT);
  const state = ctx.mcpReq.requestState();
  return {
    ...(capability?.url !== undefined && {
      askToOpen: async (request: { message: string; url: string }) => {
        // The retried call carries the person's answer (client-made: it picks a sentence, and decides nothing else).
        const answered = inputResponse(ctx.mcpReq.inputResponses, LINK_INPUT);
        if (answered.kind === 'elicit') return answered.action;
        askedToOpen = request;
        return 'accept' as const;
      },
    }),
    ...(takesForm(capability) && {
      confirmByRetry: {
        ...(confirmAnswer.kind === 'elicit' && { answered: { action: confirmAnswer.action, state: typeof state === 'string' ? state : undefined } }),
        ask: (question: { message: string; state: string }) => {
          askedToConfirm = question;
        },
      },
    }),
    inputRequired: () => {
      if (askedToOpen === undefined && askedToConfirm === undefined) return undefined;
      return inputRequired({
        inputRequests: {
          ...(askedToOpen !== undefined && { [LINK_INPUT]: inputRequired.elicitUrl(askedToOpen) }),
          // No field to fill: the person's accept or decline is the answer, as over stdio.
          ...(askedToConfirm !== undefined && {
            [CONFIRM_INPUT]: inputRequired.elicit({ mode: 'form', message: askedToConfirm.message, requestedSchema: { type: 'object', properties: {} } }),
          }),
        },
        ...(askedToConfirm !== undefined && { requestState: askedToConfirm.state }),
      });
    },
  };
}
