import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';

/** What both transports answer, with -32600, to JSON that is not a message they can take. */
export const INVALID_REQUEST = 'Invalid Request: not a JSON-RPC 2.0 request, notification or response';

/** A JSON-RPC message as the SDK will read it (its transports parse each message with this schema). */
export function isJsonRpcMessage(value: unknown): boolean {
  return JSONRPCMessageSchema.safeParse(value).success;
}

/** A POST body the Streamable HTTP transport takes: one message, or a non-empty batch of them. */
export function isJsonRpcPayload(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 && value.every(isJsonRpcMessage) : isJsonRpcMessage(value);
}
