import type { CredentialCheck } from '../session-check.js';
import { openSecret } from '../sealed-secret.js';
import type { SignInMethod } from './sign-in-routes.js';

/**
 * How a session's credential is checked again, by the way it signed in: a token by its SHA-256 against the
 * tokens file as it is now (re-read first), an OIDC sign-in at the provider (OidcSignIn.recheck).
 */
export function credentialCheck(method: SignInMethod): CredentialCheck {
  return async (id, session) => {
    const credential = session.credential;
    if (method.mode === 'tokens') {
      if (credential?.kind !== 'token' || method.authenticator.principalOfTokenHash === undefined) return { ended: 'it did not sign in with a token' };
      const principal = await method.authenticator.principalOfTokenHash(credential.sha256);
      return principal ?? { ended: 'its token is no longer in the tokens file' };
    }
    if (credential?.kind !== 'oidc') return { ended: 'it did not sign in at the identity provider' };
    const accessToken = credential.sealed === undefined ? undefined : openSecret(credential.sealed, id);
    if (credential.sealed !== undefined && accessToken === undefined) return { ended: 'its access token cannot be opened' };
    return method.oidc.recheck(accessToken, credential, session.principal.subject, session.principal.groups);
  };
}
