import type { LinkVendor } from '../../../core/identity/acting-identity.js';
import type { SecretText } from '../../../core/identity/secret-text.js';
import type { Refresher } from '../token-renewal.js';
import type { LinkTokens, NewLink } from '../vault-record.js';

/**
 * A vendor's browser-redirect linking (OAuth 2.0 authorization code with PKCE): the URL to send the person to,
 * then the code the callback brings exchanged for tokens and the account they belong to.
 */
export interface RedirectFlow {
  readonly vendor: LinkVendor;
  /** The vendor's authorization URL for this attempt. */
  authorizationUrl(state: string, verifier: SecretText): Promise<string>;
  /** Redeems the callback's code, then learns whose account it is (login, account id, site). */
  exchange(code: string, state: string, verifier: SecretText): Promise<NewLink>;
  /** Renews expiring tokens; absent where tokens do not expire. */
  readonly refresh?: Refresher;
  /** Revokes the tokens at the vendor on disconnect, where the vendor offers it. */
  revoke?(tokens: LinkTokens): Promise<void>;
}

/** A vendor where the person enters a personal access token, checked with one read before it is kept. */
export interface TokenCheck {
  readonly vendor: LinkVendor;
  validate(token: SecretText): Promise<NewLink>;
}
