import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { pooledRequest as PooledRequestFn } from './pooled-request.js';
import { EgressGuard, EgressRefused, portOf, withAllowHint, type EgressAllowList } from './egress-guard.js';

/**
 * A `fetch` for the libraries that call a URL another server named (the OIDC provider's `jwks_uri`, token and
 * userinfo endpoints, which its discovery document lists): each request goes through core's HTTP stack in the
 * pool of one egress guard, so every connection's address is judged as it is made (a loopback, private or
 * metadata address only when MCP_EGRESS_ALLOW names it). Redirects are not followed (the libraries ask for
 * `redirect: manual`), and the answer is read whole up to `maxBytes`, into a WHATWG Response.
 */
export type GuardedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

let pooled: Promise<typeof PooledRequestFn> | undefined;

/** What a guard made for a URL the operator configured (not a vendor's) allows: its own scheme, no address of its own. */
export function configuredUrlGuard(url: URL, allow: EgressAllowList, name: string): EgressGuard {
  return new EgressGuard(new URL(`${url.protocol}//${name}.invalid/`), allow);
}

export function guardedFetch(guard: EgressGuard, maxBytes = 1_048_576): GuardedFetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const refused = guard.refusalOf(url);
    if (refused !== undefined) throw new EgressRefused(refused);
    const request = await (pooled ??= import('./pooled-request.js').then((m) => m.pooledRequest));
    const body = init.body instanceof URLSearchParams ? init.body.toString() : (init.body as string | undefined);
    const response = await request(url, {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      ...(body === undefined || body === null ? {} : { body }),
      signal: init.signal ?? AbortSignal.timeout(10_000),
      egress: guard,
    });
    const chunks: Buffer[] = [];
    let read = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      read += chunk.byteLength;
      if (read > maxBytes) {
        response.body.destroy();
        throw new Error(`${url.origin}${url.pathname} answered with more than ${maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    const empty = response.status === 204 || response.status === 304 || (response.status >= 100 && response.status < 200);
    return new Response(empty ? null : Buffer.concat(chunks), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Why `url` may not be fetched, judged now on what DNS answers for its host (every address), for a start-up
 * that should refuse a bad URL with a sentence rather than fail on the first request; undefined when it may be,
 * or when the name does not resolve yet (each connection is judged again as it is made).
 */
export async function egressRefusalNow(guard: EgressGuard, url: URL): Promise<string | undefined> {
  const written = guard.refusalOf(url);
  if (written !== undefined) return written;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return undefined;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const refusal = guard.addressRefusal(host, portOf(url), address);
    if (refusal !== undefined) return withAllowHint(refusal);
  }
  return undefined;
}
