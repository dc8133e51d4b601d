import type { Metrics } from '../metrics/metrics.js';
import type { Logger } from '../logging/logger.js';
import type { Answer, ClientInfo } from '../plugin/call.js';
import type { ToolDefinition } from '../plugin/tool-definition.js';
import type { PreparedRequest } from '../plugin/upstream-types.js';
import type { Principal } from '../identity/principal.js';
import type { UpstreamObservation } from './upstream-observer.js';

/** What the kernel learns of one call as it runs: the facts its log line and metrics are made of. */
export interface CallReport {
  readonly tool: ToolDefinition;
  readonly principal: Principal;
  readonly requestId: string;
  readonly client?: ClientInfo;
  /** The trace of the call's span, when tracing is on: the line leads to the trace. */
  traceId?: string;
  /** The vendor's own id of the call's last request (X-GitHub-Request-Id, ATL-TraceId...), when it sent one. */
  upstreamRequestId?: string;
  /** The request the call prepared (after validation), when it got that far. */
  prepared?: PreparedRequest;
  /** The call's last upstream exchange as its tool saw it. */
  observed?: UpstreamObservation;
  /** How it ended; absent only when the chain itself failed (a kernel bug). */
  answer?: Answer;
  /** Microseconds spent per stage and sub-step, for the stage breakdown. */
  readonly timings: Record<string, number>;
}

export interface CallReporting {
  logger: Logger;
  metrics: Metrics;
}

/**
 * The logger of the call lines: the server's, without its key-based redaction. A call line holds only what
 * reportCall puts in it (names, statuses, numbers, the path without its query values), never a header or a
 * credential under a key, and the redaction's walk of it was most of the cost of logging a call. Secret values
 * are still scrubbed from every line as it is written: that is the root logger's hook, which children share.
 */
export function callLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/**
 * The end of every tool call, whatever its outcome: one line (what was called, what was sent, how it ended, for
 * whom and from which client, under which request id, how long it took), the stage timings at debug, and the
 * call's metrics. The line's level says whose a failure is (callLineLevel). The path is the one sent without its
 * query: query values (JQL, search terms) may hold what must not be logged, so only their names are. Configured
 * secrets are scrubbed from every line by the logger itself.
 */
export function reportCall(ctx: CallReport, durationMs: number, { logger, metrics }: CallReporting): void {
  const tool = ctx.tool.spec.name;
  const outcome = ctx.answer === undefined ? 'tool_failed' : (ctx.answer.errorCode ?? 'ok');
  metrics.toolCall(tool, outcome, durationMs / 1000);
  const level = callLineLevel(outcome, ctx.observed?.status);
  if (!logger.isLevelEnabled(level)) return;
  const request = ctx.observed?.request ?? ctx.prepared;
  const query = request === undefined ? [] : [...new Set(request.url.searchParams.keys())];
  logger[level](
    {
      requestId: ctx.requestId,
      ...(ctx.traceId === undefined ? {} : { traceId: ctx.traceId }),
      tool,
      vendor: ctx.tool.upstream?.identity.vendor ?? null,
      method: request?.method ?? null,
      path: request === undefined ? null : capped(request.url.pathname, MAX_LOGGED_PATH),
      ...(query.length > 0 ? { query } : {}),
      outcome,
      upstreamStatus: ctx.observed?.status ?? null,
      durationMs: round(durationMs),
      ...(ctx.upstreamRequestId === undefined ? {} : { upstreamRequestId: ctx.upstreamRequestId }),
      principal: ctx.principal.subject,
      clientName: ctx.client === undefined ? null : capped(ctx.client.name, MAX_CLIENT_FIELD),
      clientVersion: ctx.client?.version === undefined ? null : capped(ctx.client.version, MAX_CLIENT_FIELD),
      cacheHit: ctx.observed?.cacheHit ?? null,
      resultBytes: resultBytes(ctx.answer),
    },
    'tool call',
  );
  if (logger.isLevelEnabled('debug')) {
    const stagesMs = Object.fromEntries(Object.entries(ctx.timings).map(([stage, micros]) => [stage, round(micros / 1000)]));
    logger.debug({ tool, stagesMs }, 'tool call stages');
  }
}

/** Outcomes that are the vendor's failing (or its credential's), whatever the call asked: an operator looks. */
const UPSTREAM_FAILURES = new Set([
  'upstream_server_error',
  'upstream_timeout',
  'upstream_unreachable',
  'upstream_rate_limited',
  'upstream_invalid_body',
  'missing_credentials',
]);
/** Outcomes that are this server's own fault, or of what it depends on: someone must fix the server. */
const OWN_FAULTS = new Set(['tool_failed', 'store_unavailable']);

/**
 * The level of a call line, by whose a failure is: this server's own (a plugin that crashed, the store it needs
 * gone) at error; the vendor's (5xx, no answer in time, unreachable, rate-limited, a body that is not what it
 * documents) and a credential the vendor refuses (401, 403) at warn; everything else at info, refusals and a
 * caller's mistakes included (bad arguments, a policy denial, a 404 for a wrong path).
 */
export function callLineLevel(outcome: string, upstreamStatus: number | undefined): 'info' | 'warn' | 'error' {
  if (OWN_FAULTS.has(outcome)) return 'error';
  if (UPSTREAM_FAILURES.has(outcome)) return 'warn';
  if (outcome === 'upstream_http_error' && (upstreamStatus === 401 || upstreamStatus === 403)) return 'warn';
  return 'info';
}

/**
 * Bytes of what the caller receives: the text blocks, and the structured value when there is one, counted
 * once by the stage that bounds its size when it was (serializing a value of up to MCP_STRUCTURED_MAX_BYTES
 * again only to count it cost as much as that stage's own check).
 */
function resultBytes(answer: Answer | undefined): number {
  if (answer === undefined) return 0;
  let bytes = 0;
  for (const block of answer.result.content) if (block.type === 'text') bytes += Buffer.byteLength(block.text, 'utf8');
  const structured = answer.result.structuredContent;
  if (structured !== undefined) bytes += answer.structuredBytes ?? Buffer.byteLength(JSON.stringify(structured), 'utf8');
  return bytes;
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** A log line stays a line a log shipper takes whole: a path an agent made huge is cut, saying so. */
const MAX_LOGGED_PATH = 1024;
/** A client names itself as it likes: its name and version are cut as well. */
const MAX_CLIENT_FIELD = 128;
const capped = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}...(${text.length} chars)`);
