import { ERROR_CATALOGUE, isErrorCode, type ErrorCode } from './catalogue.js';

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

/**
 * Whether a thrown value is a ToolError, including one made by another copy of this module (a plugin
 * loaded from its own install of mcp-devtools), which `instanceof` does not recognise.
 */
export function isToolError(value: unknown): value is ToolError {
  if (value instanceof ToolError) return true;
  const code = (value as { code?: unknown } | null)?.code;
  return value instanceof Error && value.name === 'ToolError' && typeof code === 'string' && isErrorCode(code);
}

/** Raised at start-up for a configuration or plugin problem; the message names what to fix. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
