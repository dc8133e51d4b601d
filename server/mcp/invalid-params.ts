import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The SDK checks a request's params against its schema before any handler runs, and answers a mismatch
 * (`tools/call` with `arguments: 12`) with -32603 Internal error, as if the server had failed. JSON-RPC and MCP
 * say -32602 Invalid params, and the caller should learn which param is wrong: every registered handler is
 * wrapped so that a schema failure is answered that way. Call once all handlers are registered.
 */
export function answerInvalidParamsAsSuch(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const issues = schemaIssues(error);
        if (issues === undefined) throw error;
        const lines = issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`);
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${lines.join('; ')}`);
      }
    });
  }
}

/** The issues of a schema (zod) validation error, or undefined for any other error. */
function schemaIssues(error: unknown): SchemaIssue[] | undefined {
  if (error instanceof McpError || typeof error !== 'object' || error === null) return undefined;
  const issues = (error as { issues?: unknown }).issues;
  // zod's classic error is named ZodError, its core one (what the SDK's safeParse gives) $ZodError.
  if (!/^\$?ZodError$/.test(String((error as { name?: unknown }).name)) || !Array.isArray(issues)) return undefined;
  return issues as SchemaIssue[];
}
