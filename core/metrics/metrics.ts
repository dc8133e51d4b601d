/** How an HTTP cache lookup ended: a fresh hit, a stale entry a 304 confirmed, a miss, skipped (`fresh: true`), or a store failure. */
export type CacheLookupResult = 'hit' | 'revalidated' | 'miss' | 'bypass' | 'error';

/** Why the rate-limit governor held a request back (Metrics.rateLimitWait). */
export type RateLimitWaitReason = 'pace' | 'reset' | 'retry';

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
  /**
   * The budget a vendor's answer says is left (`x-ratelimit-remaining`), by vendor and resource (GitHub's
   * `core`, `search`, `graphql`): the last seen, whichever credential it was.
   */
  rateLimitRemaining(vendor: string, resource: string, remaining: number): void;
  /**
   * A request held back by the rate-limit governor: `reason` is `pace` (the budget spread over the time to its
   * reset), `reset` (the budget spent, waiting for the window to end) or `retry` (a 429 or a secondary limit
   * said how long to wait, and the request is sent again).
   */
  rateLimitWait(vendor: string, reason: RateLimitWaitReason, seconds: number): void;
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
  rateLimitRemaining: () => {},
  rateLimitWait: () => {},
  policyDecision: () => {},
  artifactStored: () => {},
});
