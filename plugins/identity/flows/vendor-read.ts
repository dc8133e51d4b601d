import type { LinkVendor } from '../../../core/identity/acting-identity.js';
import { LinkError } from '../../../core/identity/link-error.js';
import type { SecretText } from '../../../core/identity/secret-text.js';

const TIMEOUT_MS = 15_000;

export interface VendorRead {
  vendor: LinkVendor;
  url: string;
  token: SecretText;
  /** How the token is sent: `Authorization: Bearer` by default; CircleCI takes `Circle-Token`. */
  header?: 'bearer' | 'circle-token';
  /** The answer as text instead of JSON (Bitbucket Data Center's whoami). */
  text?: boolean;
}

/**
 * One authenticated GET at the vendor, to learn who a token belongs to: 401 or 403 means the token is refused
 * (the person must check it), any other failure that the vendor could not be asked. Nothing of the token or
 * of the answer body goes into an error.
 */
export async function readAsOwner<T>(read: VendorRead): Promise<T> {
  const headers: Record<string, string> = { accept: read.text ? 'text/plain' : 'application/json', 'user-agent': 'mcp-devtools' };
  if (read.header === 'circle-token') headers['circle-token'] = read.token.reveal();
  else headers.authorization = `Bearer ${read.token.reveal()}`;
  let response: Response;
  try {
    response = await fetch(read.url, { headers, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new LinkError('vendor_unreachable', read.vendor);
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new LinkError('token_refused', read.vendor, { vendorError: `HTTP ${response.status}`.replace(' ', '_') });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new LinkError('vendor_unreachable', read.vendor, { vendorError: `HTTP_${response.status}` });
  }
  try {
    return (read.text ? await response.text() : await response.json()) as T;
  } catch {
    throw new LinkError('vendor_unreachable', read.vendor);
  }
}
