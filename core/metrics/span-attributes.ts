// The attribute names of the spans the server makes. The stable ones come from the semantic conventions package;
// the MCP and GenAI ones are not stable yet (OpenTelemetry's GenAI conventions, where the MCP ones live, are in
// development), so they are copied here as its authors advise rather than imported from its `incubating` entry,
// which may change in any minor release. test/core/metrics/span-attributes.test.ts holds the copies to the package.
export {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';

/** The MCP method of a server span (`tools/call`). */
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
/** The MCP revision the request was served in. */
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
/** The JSON-RPC id of the request. */
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** `execute_tool` for a tool call. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL = 'execute_tool';
/** The tool called. */
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';

// This server's own, under its name: what no convention names.
/** The call's request id (the log line's and the audit record's `requestId`). */
export const ATTR_REQUEST_ID = 'mcp_devtools.request.id';
/** The MCP client's name and version, as it gave them. */
export const ATTR_CLIENT_NAME = 'mcp_devtools.client.name';
export const ATTR_CLIENT_VERSION = 'mcp_devtools.client.version';
/** The vendor a call or a request went to (`github`, `jira`). */
export const ATTR_VENDOR = 'mcp_devtools.vendor';
/** How a call ended: `ok`, or its error code (`error.type` too when it failed). */
export const ATTR_OUTCOME = 'mcp_devtools.outcome';
