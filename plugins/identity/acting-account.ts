import { ToolError } from '../../core/errors/tool-error.js';
import { VENDOR_NAMES, type LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import type { LinkedAccounts } from '../../core/identity/linked-accounts.js';
import { StoreError } from '../../core/store/key-value-store.js';
import { publicUpstream, UPSTREAM_META_KEY } from '../../core/plugin/public-upstream.js';
import type { AroundMiddleware } from '../../core/plugin/stages.js';
import type { CallActing } from '../../core/plugin/upstream-types.js';
import type { AskToOpen } from '../../core/plugin/call.js';

/** Where a person links an account, as the end of the sentence that tells them to (` at https://.../console/accounts`). */
export type WhereToLink = (vendor: LinkVendor) => string;

/** The page a browser links at (the console's Connected accounts), when there is one. */
export type LinkPage = () => string | undefined;

/**
 * Envelope stage, after the policy's (so inside its audit record), before validation: for a tool whose vendor
 * acts with linked accounts (`<VENDOR>_CREDENTIALS=user|user-or-service`), reads the caller's credential from
 * the vault (renewed first when it is about to expire) and hands the call on acting as them: their binding
 * prepares and sends the request, `_meta["mcp-devtools/upstream"]` and the audit name their login, policy
 * rules see `identity: user`. In `user` mode a caller without a usable link is refused here, in one sentence
 * that says where to link, and nothing is sent; the service credential never acts for them. Read on every
 * call: a link removed a moment ago (disconnect, another replica) stops the next call.
 */
export function actingAccount(accounts: LinkedAccounts, whereToLink: WhereToLink, linkPage: LinkPage = () => undefined): AroundMiddleware {
  return {
    // Inside every envelope contributor (the result envelope makes a refusal the tool's error result; the
    // upstream identity and the audit record see who acted), and before validation, which prepares the request
    // with the acting binding.
    stage: 'validate',
    name: 'acting-account',
    before: ['kernel/input-schema'],
    run: async (call, next) => {
      const binding = call.tool.upstream;
      const linking = binding?.linking;
      if (binding === undefined || linking === undefined || linking.mode === 'service' || binding.actingAs === undefined) return next(call);
      const principal = call.principal.subject;
      const credential = await accounts.credential(principal, linking.vendor).catch((error: unknown) => {
        throw refusal(error, linking.vendor, whereToLink);
      });
      if (credential === undefined) {
        if (linking.mode === 'user') throw await missingLink(call.askToOpen, linkPage(), linking.vendor, whereToLink);
        return next(call);
      }
      const acting: CallActing = {
        identity: credential.identity,
        credential,
        binding: binding.actingAs(credential),
        markStale: (reason) => accounts.markStale(principal, linking.vendor, reason),
        whereToLink: whereToLink(linking.vendor),
      };
      call.meta[UPSTREAM_META_KEY] = publicUpstream(binding.identity, acting);
      return next({ ...call, acting });
    },
  };
}

/**
 * A caller without a link, in `user` mode. A client that takes URL-mode elicitation has the person asked to open
 * the linking page (the URL goes to them, never into the model's context), and the result says so without the
 * URL; any other client, or an elicitation that failed, gets the sentence with where to link.
 */
async function missingLink(askToOpen: AskToOpen | undefined, page: string | undefined, vendor: LinkVendor, whereToLink: WhereToLink): Promise<ToolError> {
  const name = VENDOR_NAMES[vendor];
  if (askToOpen !== undefined && page !== undefined) {
    const message = `Link your ${name} account to mcp-devtools, so that its calls to ${name} act as you: open Connected accounts and connect ${name}.`;
    const chose = await askToOpen({ message, url: page }).catch(() => undefined);
    if (chose === 'accept')
      return new ToolError(
        'missing_credentials',
        `You have not linked your ${name} account yet; you were asked to link it in your browser, so call again once it is linked.`,
      );
    if (chose !== undefined)
      return new ToolError('missing_credentials', `You have not linked your ${name} account yet, and chose not to link it now; nothing was sent.`);
  }
  return refusal(new LinkError('not_linked', vendor), vendor, whereToLink);
}

/** A link that cannot act, as the caller's error: the vault's sentence, with where to link when linking again helps. */
function refusal(error: unknown, vendor: LinkVendor, whereToLink: WhereToLink): ToolError {
  if (error instanceof StoreError) return new ToolError('store_unavailable', 'The store of linked accounts could not be reached; try again in a moment.');
  if (!(error instanceof LinkError)) throw error;
  if (error.retryable) return new ToolError('upstream_unreachable', error.message);
  const where = whereToLink(vendor);
  return new ToolError('missing_credentials', `${error.message.replace(/\.$/, '')}${where}.`);
}
