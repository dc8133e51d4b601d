/** What the low-level codes of a request that got no answer mean, for someone fixing the configuration. */
const EXPLAINED: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections at that address (connection refused)',
  ENOTFOUND: 'the host name does not resolve (DNS has no such host)',
  EAI_AGAIN: 'the host name could not be resolved just now (DNS did not answer)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'connecting timed out',
  EHOSTUNREACH: 'the host cannot be reached from this machine',
  ENETUNREACH: 'the network cannot be reached from this machine',
  UND_ERR_SOCKET: 'the connection closed before the answer came',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
};

/** Codes Node's TLS gives a certificate it does not trust or that does not match the host. */
const CERTIFICATE = /^(CERT_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|ERR_TLS_CERT|HOSTNAME_MISMATCH)/;

/**
 * Why a request got no answer, in words that say what to fix: the low-level code (ECONNREFUSED, ENOTFOUND,
 * a certificate's), found down the `cause` chain where fetch wraps it in "fetch failed", and what it means.
 * `origin` is the base URL's, named so that the setting to check is obvious.
 */
export function unreachableMessage(label: string, request: { method: string; path: string }, origin: string, error: unknown): string {
  const what = `${label} could not be reached for ${request.method} ${request.path}`;
  const { code, message } = innermostCause(error);
  if (code !== undefined && CERTIFICATE.test(code)) {
    return `${what} (certificate: ${code}): the TLS certificate of ${origin} is not accepted (${message}). If it is signed by a private CA, start the server with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`;
  }
  const why = code === undefined ? undefined : EXPLAINED[code];
  return `${what} (${code ?? message})${why === undefined ? '' : `: ${why}`}. Check ${origin} is reachable, then try again.`;
}

/** The first error code down the cause chain (into AggregateError's errors), and the deepest message. */
function innermostCause(error: unknown): { code?: string; message: string } {
  let code: string | undefined;
  let message = 'unknown error';
  let e: unknown = error;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < 6; depth++) {
    const found = (e as { code?: unknown }).code;
    if (code === undefined && typeof found === 'string') code = found;
    const text = (e as { message?: unknown }).message;
    if (typeof text === 'string' && text !== '') message = text;
    const errors = (e as { errors?: unknown }).errors;
    e = (e as { cause?: unknown }).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return code === undefined ? { message } : { code, message };
}
