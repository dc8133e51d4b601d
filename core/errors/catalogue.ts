/**
 * The one catalogue of error codes a caller can see. Every error result carries one of these codes in
 * `_meta.code`-free form inside its text, and docs/errors.md lists every code (a test keeps them in step).
 * `retryable` tells an agent whether trying the same call again later can succeed.
 */
export const ERROR_CATALOGUE = {
  invalid_arguments: { retryable: false, summary: "The arguments do not match the tool's input schema." },
  invalid_path: { retryable: false, summary: 'A path argument is not a safe, relative API path for this vendor.' },
  invalid_jq: {
    retryable: false,
    summary:
      'The jq (JMESPath) expression is longer than 2,000 characters. An expression that does not parse or fails on the data is not an error: the result is {_jqError, reason, nearestPaths, topLevelKeys} ({_jqError, _originalData} on the Atlassian passthroughs, as the reference servers answer), to retry with a corrected expression.',
  },
  invalid_graphql: {
    retryable: false,
    summary:
      "A GraphQL document the caller wrote is refused before it is sent: it does not parse, holds a subscription, asks for introspection, exceeds the tool's byte, depth or field limit, or holds a mutation where the tool sends queries only; or a request to a GraphQL endpoint carries no operation.",
  },
  projection_too_large: {
    retryable: false,
    summary: 'The jq (JMESPath) expression would produce far more data than the response holds, or ran over 1 s; it was stopped.',
  },
  missing_credentials: { retryable: false, summary: "The vendor's credentials are not configured." },
  upstream_http_error: { retryable: false, summary: 'The vendor API answered with an error status.' },
  upstream_server_error: { retryable: true, summary: 'The vendor API answered 5xx; retried where safe.' },
  upstream_rate_limited: { retryable: true, summary: 'The vendor API rate limit was hit; retry after the time given.' },
  upstream_timeout: { retryable: true, summary: 'The vendor API did not answer within MCP_REQUEST_TIMEOUT_MS.' },
  upstream_unreachable: { retryable: true, summary: 'The vendor API could not be reached or reset the connection.' },
  upstream_invalid_body: { retryable: false, summary: 'The vendor API answered with a body that is not the JSON expected.' },
  upstream_empty_body: { retryable: false, summary: 'The vendor API answered with an empty or null body where JSON was expected.' },
  upstream_graphql_error: {
    retryable: false,
    summary:
      "The vendor's GraphQL API answered with errors (their messages and paths are in the text), or with no data; a tool that declares partialData gets an answer with data and errors as data.",
  },
  upstream_too_large: { retryable: false, summary: 'The response exceeded MCP_MAX_RESPONSE_BYTES.' },
  upstream_redirect_refused: { retryable: false, summary: 'The vendor API redirected somewhere it may not be followed.' },
  egress_refused: {
    retryable: false,
    summary:
      'A URL an upstream handed out (a redirect to another origin, a storage URL) leads to plain http or to a loopback, private, link-local or metadata address; nothing was sent there (MCP_EGRESS_ALLOW allows a host).',
  },
  policy_denied: { retryable: false, summary: 'The enterprise policy refused the call.' },
  approval_required: { retryable: true, summary: 'The call is held until an approver grants it; retry after the grant.' },
  confirmation_required: {
    retryable: true,
    summary:
      "A policy rule asks the person to confirm the call, and a 2026-07-28 client was asked through input_required: nothing ran. The client retries the call with the person's answer; only the audit log shows this code.",
  },
  store_unavailable: {
    retryable: true,
    summary: 'The shared store (MCP_STORE_URL) cannot be reached and the call needs it (an approval to look up or record): refused, nothing was sent.',
  },
  artifact_not_found: { retryable: false, summary: 'Artifact not found or expired.' },
  unsupported_content: {
    retryable: false,
    summary:
      'The content is not of a kind this tool returns (an attachment that is not an image, an artifact that is not text); the message names the tool that can read it.',
  },
  upload_refused: {
    retryable: false,
    summary: 'An upload was refused before anything was sent: a name that exists, a file over the size limits, or content that is not base64.',
  },
  program_invalid: {
    retryable: false,
    summary: 'A code-mode program has a syntax or type error (line and column given) and was not run (execute).',
  },
  program_limit: {
    retryable: false,
    summary: 'A code-mode program reached one of its limits (wall time, CPU, memory, stack, output, tool calls) and was stopped; the message names it.',
  },
  program_failed: { retryable: false, summary: 'A code-mode program threw an error it did not catch (execute).' },
  tool_failed: { retryable: false, summary: "The tool's plugin failed unexpectedly; other calls are unaffected." },
  cancelled: { retryable: true, summary: 'The call was cancelled by the client or by shutdown.' },
  too_many_tasks: {
    retryable: true,
    summary: 'The caller already has MCP_TASK_MAX_PER_PRINCIPAL tasks running on this server: one more starts once one of them ends or is cancelled.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, code);
}
