import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';

type RequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The SDK checks a request's params against its era's schema before any handler runs, and answers a mismatch
 * (`tools/list` with `cursor: 5`, `initialize` without `clientInfo`) with -32603 Internal error, as if the
 * server had failed, and the schema library's raw issue list as the message (`tools/call` it answers -32602
 * itself). JSON-RPC and MCP say -32602 Invalid params, and the caller should learn which param is wrong: every
 * registered handler is wrapped so that a schema failure is answered that way. Call once all handlers are
 * registered.
 */
export function answerInvalidParamsAsSuch(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, ctx) => {
      try {
        return await handler(request, ctx);
      } catch (error) {
        const issues = schemaIssues(error);
        if (issues === undefined) throw error;
        const lines = issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${lines.join('; ')}`);
      }
    });
  }
}

/**
 * The issues of the SDK's params check, or undefined for any other error. The SDK throws them as a plain
 * `Error` whose message is the issue list in JSON; its own protocol errors are other classes.
 */
function schemaIssues(error: unknown): SchemaIssue[] | undefined {
  if (!(error instanceof Error) || error.constructor !== Error || !error.message.startsWith('[')) return undefined;
  try {
    const issues = JSON.parse(error.message) as unknown;
    const valid =
      Array.isArray(issues) && issues.length > 0 && issues.every((i: Partial<SchemaIssue>) => Array.isArray(i?.path) && typeof i.message === 'string');
    return valid ? (issues as SchemaIssue[]) : undefined;
  } catch {
    return undefined;
  }
}
