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

// A string-keyed global symbol, as the decorators use: a third-party plugin bundles its own copy of this class,
// and its errors must still be recognised as ToolErrors (with their code and _meta), not as plugin crashes.
const TOOL_ERROR_BRAND = Symbol.for('mcp-devtools:ToolError');

/** True for a ToolError from any copy of mcp-devtools (the same test `instanceof ToolError` makes). */
export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError;
}

/**
 * An error a tool call ends with. Thrown anywhere in the pipeline, it is turned into an error result
 * (`isError: true`) by the envelope stage, so a caller always gets a result, never a crash.
 */
export class ToolError extends Error {
  /** `instanceof ToolError` also holds for a ToolError made by another copy of this module. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ToolError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR_BRAND] === true;
  }

  readonly code: ErrorCode;
  readonly status?: number;
  readonly upstreamBody?: string;
  readonly retryAfterSeconds?: number;
  readonly meta?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: ToolErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ToolError';
    Object.defineProperty(this, TOOL_ERROR_BRAND, { value: true });
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
