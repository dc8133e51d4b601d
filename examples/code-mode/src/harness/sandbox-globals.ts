/**
 * What a program sees besides the tools, as declarations: `console` and the typed exceptions of tool calls. The
 * classes are those of tool-errors.ts (the sandbox installs them); the timers, `process`, `require` and the
 * network are absent here as they are at run time, so a program that uses them fails to type-check first.
 */
export const SANDBOX_GLOBALS = `/** Printed lines are what the model reads back: print the answer, compactly. */
declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
  debug(...values: unknown[]): void;
};

/** The decision of the enterprise policy behind a refusal (the result's _meta.decision). */
interface PolicyDecision {
  effect: string;
  ruleId?: string;
  reason?: string;
  policyVersion?: string;
  approvalId?: string;
  expiresAt?: string;
  [key: string]: unknown;
}

/** A tool call that returned an error (isError), e.g. code "upstream_http_error" with the upstream status in text. */
declare class ToolCallError extends Error {
  readonly tool: string;
  /** The error code of the server's catalogue, or null. */
  readonly code: string | null;
  /** The error text as the server wrote it. */
  readonly text: string;
  /** The result's _meta. */
  readonly meta: Record<string, unknown>;
}
/** The enterprise policy refused the call. */
declare class PolicyDeniedError extends ToolCallError {
  readonly decision: PolicyDecision;
}
/** The call needs an approver's grant (decision.approvalId); retry after it is granted. */
declare class ApprovalRequiredError extends ToolCallError {
  readonly decision: PolicyDecision;
}
/** The value was too large and could not be saved for reading back: narrow the request (jq, smaller pages). */
declare class IncompleteResultError extends ToolCallError {
  readonly reason: string;
}
`;
