import { ERROR_CATALOGUE, type ErrorCode } from './catalogue.js';

export interface ToolErrorDetails {
  /** HTTP status of the upstream response, when there was one. */
  status?: number;
  /** The upstream error body (capped when rendered). */
  upstreamBody?: string;
  /** Seconds after which a retry can succeed (rate limits). */
  retryAfterSeconds?: number;
  /** Extra `_meta` keys the result must carry (policy decisions). */
  meta?: Record<string, unknown>;
  cause?: unknown;
}

// A registry-wide symbol, not `instanceof`: a plugin bundled with its own copy of this module still throws
// errors the kernel recognises.
const TOOL_ERROR = Symbol.for('mcp-devtools.ToolError');

/** True for a ToolError from any copy of mcp-devtools. */
export function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR] === true;
}

/**
 * An error a tool call ends with. Thrown anywhere in the pipeline, it is turned into an error result
 * (`isError: true`) by the envelope stage, so a caller always gets a result, never a crash.
 */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly upstreamBody?: string;
  readonly retryAfterSeconds?: number;
  readonly meta?: Record<string, unknown>;
  readonly [TOOL_ERROR] = true;

  constructor(code: ErrorCode, message: string, details: ToolErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ToolError';
    this.code = code;
    this.status = details.status;
    this.upstreamBody = details.upstreamBody;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.meta = details.meta;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

/** Raised at start-up for a configuration or plugin problem; the message names what to fix. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
