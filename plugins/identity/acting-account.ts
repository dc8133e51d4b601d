import { ToolError } from '../../core/errors/tool-error.js';
import type { LinkVendor } from '../../core/identity/acting-identity.js';
import { LinkError } from '../../core/identity/link-error.js';
import type { LinkedAccounts } from '../../core/identity/linked-accounts.js';
import { StoreError } from '../../core/store/key-value-store.js';
import { publicUpstream, UPSTREAM_META_KEY } from '../../core/plugin/public-upstream.js';
import type { AroundMiddleware } from '../../core/plugin/stages.js';
import type { CallActing } from '../../core/plugin/upstream-types.js';

/** Where a person links an account, as the end of the sentence that tells them to (` at https://.../console/accounts`). */
export type WhereToLink = (vendor: LinkVendor) => string;

/**
 * Envelope stage, after the policy's (so inside its audit record), before validation: for a tool whose vendor
 * acts with linked accounts (`<VENDOR>_CREDENTIALS=user|user-or-service`), reads the caller's credential from
 * the vault (renewed first when it is about to expire) and hands the call on acting as them: their binding
 * prepares and sends the request, `_meta["mcp-devtools/upstream"]` and the audit name their login, policy
 * rules see `identity: user`. In `user` mode a caller without a usable link is refused here, in one sentence
 * that says where to link, and nothing is sent; the service credential never acts for them. Read on every
 * call: a link removed a moment ago (disconnect, another replica) stops the next call.
 */
export function actingAccount(accounts: LinkedAccounts, whereToLink: WhereToLink): AroundMiddleware {
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
        if (linking.mode === 'user') throw refusal(new LinkError('not_linked', linking.vendor), linking.vendor, whereToLink);
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

/** A link that cannot act, as the caller's error: the vault's sentence, with where to link when linking again helps. */
function refusal(error: unknown, vendor: LinkVendor, whereToLink: WhereToLink): ToolError {
  if (error instanceof StoreError) return new ToolError('store_unavailable', 'The store of linked accounts could not be reached; try again in a moment.');
  if (!(error instanceof LinkError)) throw error;
  if (error.retryable) return new ToolError('upstream_unreachable', error.message);
  const where = whereToLink(vendor);
  return new ToolError('missing_credentials', `${error.message.replace(/\.$/, '')}${where}.`);
}
