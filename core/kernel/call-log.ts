import type { Metrics } from '../metrics/metrics.js';
import type { Logger } from '../logging/logger.js';
import type { Answer } from '../plugin/call.js';
import type { ToolDefinition } from '../plugin/tool-definition.js';
import type { PreparedRequest } from '../plugin/upstream-types.js';
import type { Principal } from '../identity/principal.js';
import type { UpstreamObservation } from './upstream-observer.js';

/** What the kernel learns of one call as it runs: the facts its log line and metrics are made of. */
export interface CallReport {
  readonly tool: ToolDefinition;
  readonly principal: Principal;
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
 * The end of every tool call, whatever its outcome: one info line (what was called, what was sent, how it
 * ended, for whom, how long it took), the stage timings at debug, and the call's metrics. The path is the
 * one sent without its query: query values (JQL, search terms) may hold what must not be logged, so only
 * their names are. Configured secrets are scrubbed from every line by the logger itself.
 */
export function reportCall(ctx: CallReport, durationMs: number, { logger, metrics }: CallReporting): void {
  const tool = ctx.tool.spec.name;
  const outcome = ctx.answer === undefined ? 'tool_failed' : (ctx.answer.errorCode ?? 'ok');
  metrics.toolCall(tool, outcome, durationMs / 1000);
  if (!logger.isLevelEnabled('info')) return;
  const request = ctx.observed?.request ?? ctx.prepared;
  const query = request === undefined ? [] : [...new Set(request.url.searchParams.keys())];
  logger.info(
    {
      tool,
      vendor: ctx.tool.upstream?.identity.vendor ?? null,
      method: request?.method ?? null,
      path: request === undefined ? null : capped(request.url.pathname),
      ...(query.length > 0 ? { query } : {}),
      outcome,
      upstreamStatus: ctx.observed?.status ?? null,
      durationMs: round(durationMs),
      principal: ctx.principal.subject,
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
const capped = (path: string): string => (path.length <= MAX_LOGGED_PATH ? path : `${path.slice(0, MAX_LOGGED_PATH)}...(${path.length} chars)`);
