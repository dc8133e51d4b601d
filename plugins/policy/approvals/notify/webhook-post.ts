import type { EgressGuard } from '../../../../core/http/egress-guard.js';
import type { pooledRequest as PooledRequestFn } from '../../../../core/http/pooled-request.js';

/** How a receiver answered one POST: its status, and how long it asked us to wait (Retry-After), if it did. */
export interface PostOutcome {
  status: number;
  retryAfterMs?: number;
}

export type PostWebhook = (url: URL, body: string, headers: Record<string, string>, timeoutMs: number, egress: EgressGuard) => Promise<PostOutcome>;

let pooled: Promise<typeof PooledRequestFn> | undefined;

/**
 * The one request the server makes to a webhook receiver, through core's HTTP stack (undici's pooled request,
 * as upstream calls are), in the pool of the receiver's egress guard: each connection's address is judged as
 * it is made (a loopback, private or metadata address only when MCP_EGRESS_ALLOW names it), so a receiver's
 * name that resolves to one later is refused too. Redirects are not followed (a 3xx is a failed delivery);
 * the answer's body is read and dropped, never kept.
 */
export const postWebhook: PostWebhook = async (url, body, headers, timeoutMs, egress) => {
  const request = await (pooled ??= import('../../../../core/http/pooled-request.js').then((m) => m.pooledRequest));
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await request(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal, egress });
  response.body.resume();
  await new Promise<void>((resolve) => {
    response.body.once('end', resolve);
    response.body.once('error', () => resolve());
    response.body.once('close', resolve);
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  return { status: response.status, ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterMs: retryAfter * 1000 } : {}) };
};
