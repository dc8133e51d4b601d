/** How an HTTP cache lookup ended: a fresh hit, a stale entry a 304 confirmed, a miss, skipped (`fresh: true`), or a store failure. */
export type CacheLookupResult = 'hit' | 'revalidated' | 'miss' | 'bypass' | 'error';

/**
 * What the server counts while it runs, provided to plugins as `TOKENS.Metrics`. The kernel records tool
 * calls, upstream requests and artifacts; the cache and the policy record their own decisions with one call
 * each. Without a metrics endpoint every method does nothing, so counting costs nothing and loads nothing.
 */
export interface Metrics {
  /** One finished tool call: `outcome` is `ok` or the error code of its result. */
  toolCall(tool: string, outcome: string, seconds: number): void;
  /**
   * One request that reached the network, retries included: `status` is the HTTP status (`none` when no answer
   * came), `outcome` is `ok` or the error code the request ended with (`upstream_server_error`, `upstream_timeout`).
   */
  upstreamRequest(vendor: string, status: string, outcome: string): void;
  /**
   * How long one request to a vendor took on the network, each retry on its own, until its body was read:
   * `statusClass` is `2xx` to `5xx`, or `timeout`, `unreachable`, `cancelled`, `error` when no status came back.
   */
  upstreamDuration(vendor: string, method: string, statusClass: string, seconds: number): void;
  cacheLookup(result: CacheLookupResult): void;
  /** A policy decision: `allow`, `deny`, `approval_required` or `confirm` (the person was asked, whatever they answered). */
  policyDecision(effect: string): void;
  /** An artifact saved (an oversized result, a whole job log), of `bytes`. */
  artifactStored(bytes: number): void;
  /** How to count the approvals waiting, read at each scrape: the policy plugin gives it when it boots. */
  watchPendingApprovals?(read: () => Promise<number>): void;
}

/** The metrics of a server without a metrics endpoint. */
export const noMetrics: Metrics = Object.freeze({
  toolCall: () => {},
  upstreamRequest: () => {},
  upstreamDuration: () => {},
  cacheLookup: () => {},
  policyDecision: () => {},
  artifactStored: () => {},
});
