import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheLookupResult, Metrics, RateLimitWaitReason } from '../../core/metrics/metrics.js';
import type { Logger } from '../../core/logging/logger.js';
import { VERSION } from '../../core/version.js';
import { AUTH_FAILURE_REASONS, type AuthFailureCounter, type AuthFailureReason } from './counted-authenticator.js';
import type { HttpRequestCounter } from './http-requests.js';

/** A scrape's answer: the text exposition format and its content type. */
export interface Exposition {
  contentType: string;
  body: string;
}

/** What the gauges read when scraped: the kernel's calls in flight and the body bytes they hold. */
export interface LiveFigures {
  callsInFlight(): number;
  bodyBytesInFlight(): number;
}

const CACHE_RESULTS: readonly CacheLookupResult[] = ['hit', 'revalidated', 'miss', 'bypass', 'error'];
const POLICY_EFFECTS = ['allow', 'deny', 'approval_required', 'confirm'];
/** Tool calls last from milliseconds (a cache hit) to the upstream timeout (30 s by default) times its retries. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** One request to a vendor: tens of milliseconds for a small read, up to the upstream timeout (30 s by default). */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A rate-limit wait: a paced request's fraction of a second up to MCP_RATE_LIMIT_MAX_WAIT_SECONDS (30 s by default). */
const RATE_LIMIT_WAIT_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

/**
 * The Prometheus metrics (prom-client), loaded only by a server that exposes them: the HTTP transport, or
 * MCP_METRICS_PORT. Counters whose labels are known in advance start at zero, so a rate or an alert on them
 * works from the first scrape.
 */
export class PrometheusMetrics implements Metrics, HttpRequestCounter, AuthFailureCounter {
  readonly registry = new Registry();
  private live: LiveFigures = { callsInFlight: () => 0, bodyBytesInFlight: () => 0 };
  private source: () => Promise<Exposition> = async () => ({ contentType: this.registry.contentType, body: await this.registry.metrics() });
  private readonly calls: Counter<'tool' | 'outcome'>;
  private readonly durations: Histogram<'tool'>;
  private readonly upstream: Counter<'vendor' | 'status' | 'outcome'>;
  private readonly upstreamDurations: Histogram<'vendor' | 'method' | 'status_class'>;
  private readonly cache: Counter<'result'>;
  private readonly rateLimitLeft: Gauge<'vendor' | 'resource'>;
  private readonly rateLimitWaits: Histogram<'vendor' | 'reason'>;
  private readonly policy: Counter<'effect'>;
  private readonly artifacts: Counter;
  private readonly artifactBytes: Counter;
  private readonly httpRequests: Counter<'route' | 'status'>;
  private readonly authFailures: Counter<'reason'>;
  /** Where a failed read of the approvals store is told (set with the live figures). */
  private logger: Logger | undefined;
  private pendingApprovals: (() => Promise<number>) | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.calls = new Counter({
      name: 'mcp_devtools_tool_calls_total',
      help: 'Tool calls, by tool and outcome (ok, or the error code of the result).',
      labelNames: ['tool', 'outcome'],
      registers,
    });
    this.durations = new Histogram({
      name: 'mcp_devtools_tool_call_duration_seconds',
      help: 'Duration of tool calls, by tool.',
      labelNames: ['tool'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.upstream = new Counter({
      name: 'mcp_devtools_upstream_requests_total',
      help: 'Requests that reached a vendor API, by vendor, HTTP status (none when no answer came) and outcome (ok, or the error code).',
      labelNames: ['vendor', 'status', 'outcome'],
      registers,
    });
    this.upstreamDurations = new Histogram({
      name: 'mcp_devtools_upstream_request_duration_seconds',
      help: 'Duration of each request to a vendor API (each retry on its own) until its body was read, by vendor, method and status class (2xx to 5xx, or timeout, unreachable, cancelled, error).',
      labelNames: ['vendor', 'method', 'status_class'],
      buckets: UPSTREAM_BUCKETS,
      registers,
    });
    this.cache = new Counter({
      name: 'mcp_devtools_cache_lookups_total',
      help: 'HTTP cache lookups, by result (hit, revalidated, miss, bypass, error).',
      labelNames: ['result'],
      registers,
    });
    this.rateLimitLeft = new Gauge({
      name: 'mcp_devtools_upstream_rate_limit_remaining',
      help: "Requests a vendor's last answer said are left in its rate-limit window (x-ratelimit-remaining), by vendor and resource (GitHub's core, search, graphql).",
      labelNames: ['vendor', 'resource'],
      // Every worker spends the same budget: the lowest figure is the latest, not a share to sum.
      aggregator: 'min',
      registers,
    });
    this.rateLimitWaits = new Histogram({
      name: 'mcp_devtools_upstream_rate_limit_wait_seconds',
      help: 'Time requests were held back by the rate-limit governor, by vendor and reason (pace: spreading the budget left; reset: the budget spent, waiting for its window to end; retry: a 429 or secondary limit said to wait, and the request was sent again).',
      labelNames: ['vendor', 'reason'],
      buckets: RATE_LIMIT_WAIT_BUCKETS,
      registers,
    });
    this.policy = new Counter({ name: 'mcp_devtools_policy_decisions_total', help: 'Policy decisions, by effect.', labelNames: ['effect'], registers });
    this.artifacts = new Counter({ name: 'mcp_devtools_artifacts_stored_total', help: 'Artifacts saved (oversized results, whole job logs).', registers });
    this.artifactBytes = new Counter({ name: 'mcp_devtools_artifact_bytes_stored_total', help: 'Bytes of the artifacts saved.', registers });
    this.httpRequests = new Counter({
      name: 'mcp_devtools_http_requests_total',
      help: 'HTTP requests answered, by route (/mcp, /healthz, /metrics, /artifacts, /admin, /console, the OAuth metadata, or other) and status (499: the client left first).',
      labelNames: ['route', 'status'],
      registers,
    });
    this.authFailures = new Counter({
      name: 'mcp_devtools_auth_failures_total',
      help: 'Requests refused by authentication, by reason (missing_token, invalid_token, unverifiable).',
      labelNames: ['reason'],
      registers,
    });
    const live = (): LiveFigures => this.live;
    const pending = (): (() => Promise<number>) | undefined => this.pendingApprovals;
    const warn = (error: unknown): void => this.logger?.warn({ err: (error as Error).message }, 'the approvals store could not be read for a scrape');
    new Gauge({
      name: 'mcp_devtools_approvals_pending',
      help: 'Approvals waiting for an approver (from the shared approvals store; absent when it could not be read).',
      registers,
      // Every worker reads the same shared store: the figure is theirs alike, not a share to sum.
      aggregator: 'max',
      async collect() {
        const read = pending();
        if (read === undefined) return this.set(0);
        try {
          this.set(await read());
        } catch (error) {
          this.reset();
          warn(error);
        }
      },
    });
    new Gauge({
      name: 'mcp_devtools_inflight_body_bytes',
      help: 'Upstream body bytes held by calls in flight (bounded by MCP_MAX_INFLIGHT_BODY_BYTES).',
      registers,
      collect() {
        this.set(live().bodyBytesInFlight());
      },
    });
    new Gauge({
      name: 'mcp_devtools_tool_calls_in_flight',
      help: 'Tool calls in progress.',
      registers,
      collect() {
        this.set(live().callsInFlight());
      },
    });
    // Under --workers the gauges above are summed over the workers; this one is the same in each, so taken once.
    new Gauge({ name: 'mcp_devtools_build_info', help: 'The running version; always 1.', labelNames: ['version'], registers, aggregator: 'first' }).set(
      { version: VERSION },
      1,
    );
    for (const result of CACHE_RESULTS) this.cache.inc({ result }, 0);
    for (const reason of AUTH_FAILURE_REASONS) this.authFailures.inc({ reason }, 0);
    for (const effect of POLICY_EFFECTS) this.policy.inc({ effect }, 0);
  }

  /** Approvals waiting for an approver, read from the approvals store (the policy plugin's, when it runs). */
  watchPendingApprovals(read: () => Promise<number>): void {
    this.pendingApprovals = read;
  }

  /** Where the gauges read from, once the kernel runs; `logger` hears of a read that failed. */
  watch(live: LiveFigures, logger?: Logger): void {
    this.live = live;
    this.logger = logger;
  }

  httpRequest(route: string, status: number): void {
    this.httpRequests.inc({ route, status: String(status) });
  }

  authFailure(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  toolCall(tool: string, outcome: string, seconds: number): void {
    this.calls.inc({ tool, outcome });
    this.durations.observe({ tool }, seconds);
  }

  upstreamRequest(vendor: string, status: string, outcome: string): void {
    this.upstream.inc({ vendor, status, outcome });
  }

  upstreamDuration(vendor: string, method: string, statusClass: string, seconds: number): void {
    this.upstreamDurations.observe({ vendor, method, status_class: statusClass }, seconds);
  }

  cacheLookup(result: CacheLookupResult): void {
    this.cache.inc({ result });
  }

  rateLimitRemaining(vendor: string, resource: string, remaining: number): void {
    this.rateLimitLeft.set({ vendor, resource }, remaining);
  }

  rateLimitWait(vendor: string, reason: RateLimitWaitReason, seconds: number): void {
    this.rateLimitWaits.observe({ vendor, reason }, seconds);
  }

  policyDecision(effect: string): void {
    this.policy.inc({ effect });
  }

  artifactStored(bytes: number): void {
    this.artifacts.inc();
    this.artifactBytes.inc(bytes);
  }

  /** Under `--workers`: scrapes answer with what `source` gathers (every worker's figures, cluster-metrics.ts). */
  answerWith(source: () => Promise<Exposition>): void {
    this.source = source;
  }

  /** The text exposition format, as scraped: this process's registry, or the whole server's under `--workers`. */
  exposition(): Promise<Exposition> {
    return this.source();
  }
}
