import { INTERNAL_ERROR, INVALID_PARAMS, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The SDK checks a request's params against its era's schema before any handler runs, and answers a mismatch
 * (`tools/list` with `cursor: 5`, `initialize` without `clientInfo`) with -32603 Internal error, as if the
 * server had failed, and the schema library's raw issue list as the message (`tools/call` it answers -32602
 * itself). JSON-RPC and MCP say -32602 Invalid params, and the caller should learn which param is wrong.
 *
 * The SDK has no public hook for that answer (its check runs before the handler, and the 3-argument
 * setRequestHandler that answers -32602 cannot wrap its own `initialize`), so the answer is corrected on its
 * way out, through the transport's public interface: `onmessage` (which `connect` chains after the one already
 * set) notes each request's method, `send` turns such an answer into -32602 naming the method and the params.
 * test/server/mcp/sdk-params-check.test.ts fails when the SDK changes what this relies on.
 * Call on the transport before the server connects to it; a transport seen before is left as it is.
 */
export function answerInvalidParamsAsSuch(transport: Transport): void {
  if (corrected.has(transport)) return;
  corrected.add(transport);
  const methods = new Map<string | number, string>();
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message && message.id !== undefined) methods.set(message.id, message.method);
    // A cancelled request gets no answer: its method is forgotten here, not kept for the connection's life.
    else if ('method' in message && message.method === 'notifications/cancelled')
      methods.delete((message.params as { requestId?: string | number })?.requestId ?? '');
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!('id' in message) || (!('result' in message) && !('error' in message))) return send(message, options);
    const id = message.id;
    if (id === null || id === undefined) return send(message, options);
    const method = methods.get(id);
    methods.delete(id);
    return send(method === undefined ? message : asInvalidParams(message, method), options);
  };
}

const corrected = new WeakSet<Transport>();

function asInvalidParams(message: JSONRPCMessage, method: string): JSONRPCMessage {
  if (!('error' in message) || message.error.code !== INTERNAL_ERROR) return message;
  const issues = schemaIssues(message.error.message);
  if (issues === undefined) return message;
  const lines = issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(request)'}: ${i.message}`);
  return { ...message, error: { code: INVALID_PARAMS, message: `Invalid params for ${method}: ${lines.join('; ')}` } };
}

/** The issues of the SDK's params check (its message is the issue list in JSON), or undefined for any other error. */
function schemaIssues(text: string): SchemaIssue[] | undefined {
  if (!text.startsWith('[')) return undefined;
  try {
    const issues = JSON.parse(text) as unknown;
    const valid =
      Array.isArray(issues) && issues.length > 0 && issues.every((i: Partial<SchemaIssue>) => Array.isArray(i?.path) && typeof i.message === 'string');
    return valid ? (issues as SchemaIssue[]) : undefined;
  } catch {
    return undefined;
  }
}
