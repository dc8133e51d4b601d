/**
 * What a model can do about an upstream error status, in one sentence. `credential` names the credential
 * (the setting that holds it, unless it was given a label), so a refused one says what to check.
 */
export function statusHint(status: number, credential?: string): string {
  switch (status) {
    case 400:
      return 'The request was rejected as malformed: check the arguments and query parameters.';
    case 401:
      return credential === undefined
        ? 'The credentials were not accepted: check the configured token.'
        : `The credentials were not accepted: check ${credential} (a valid token, not expired or revoked).`;
    case 403:
      return 'The credentials lack permission for this resource.';
    case 404:
      return 'Nothing exists at this path, or the credentials cannot see it: check the path and identifiers.';
    case 409:
      return 'The request conflicts with the current state of the resource.';
    case 410:
      return 'The resource is gone.';
    case 422:
      return 'The request was understood but a value is invalid: check the arguments.';
    default:
      return status >= 500 ? 'The vendor API failed; try again later.' : 'See the response below.';
  }
}
