import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type RawClientDispatch, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';

// The official tasks client (@modelcontextprotocol/ext-tasks) over an official v2 SDK client. The SDK client's
// codec refuses the tasks extension's traffic (a `resultType: "task"` answer, tasks/*), so the package asks its
// host for a raw JSON-RPC path: a POST to /mcp over HTTP, the same pipes as the SDK client over stdio.

export const REVISION = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';
const CLIENT_INFO = { name: 'mcp-devtools-tests-tasks', version: '1.0.0' };

/** The `_meta` envelope of a 2026-07-28 request, declaring the tasks extension unless told not to. */
export function envelope(declareTasks = true): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': declareTasks ? { extensions: { [TASKS]: {} } } : {},
  };
}

type RawResponse = { kind: 'result'; result: never } | { kind: 'error'; error: { code: number; message: string; data?: never } };

let nextId = 0;

/** Sends one JSON-RPC request to a server's /mcp as a 2026-07-28 client does, with the routing headers; the response. */
export async function postJsonRpc(
  url: string,
  message: { method: string; params?: Record<string, unknown> },
  token?: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const id = `raw-${++nextId}`;
  const params = message.params ?? {};
  const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': REVISION,
      'mcp-method': message.method,
      ...(name !== undefined && { 'mcp-name': name }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: message.method, params }),
  });
  const text = await response.text();
  // Plain JSON, or an SSE stream whose last message is the response.
  const bodies = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
    : [text];
  const answer = bodies.map((body) => JSON.parse(body) as JsonRpcAnswer).find((m) => m.id === id);
  if (answer === undefined) throw new Error(`no JSON-RPC response to ${message.method} (HTTP ${response.status}): ${text}`);
  return toRaw(answer);
}

interface JsonRpcAnswer {
  id?: unknown;
  result?: never;
  error?: { code: number; message: string; data?: never };
}

function toRaw(message: JsonRpcAnswer): RawResponse {
  return message.error !== undefined ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result as never };
}

/** The raw path over HTTP: each request a POST of its own. */
export const httpDispatch =
  (url: string, token?: string): RawClientDispatch =>
  async (request) =>
    (await postJsonRpc(url, request as never, token)) as never;

/** The raw path over stdio: the SDK client's own transport, its answers taken before the client sees them. */
export function stdioDispatch(client: Client): RawClientDispatch {
  const transport = client.transport!;
  const pending = new Map<string, (message: JSONRPCMessage) => void>();
  const deliver = transport.onmessage!.bind(transport);
  transport.onmessage = (message, extra) => {
    const id = (message as { id?: unknown }).id;
    const waiting = typeof id === 'string' ? pending.get(id) : undefined;
    if (waiting === undefined) return deliver(message, extra);
    pending.delete(id as string);
    waiting(message);
  };
  return async (request) => {
    const id = `raw-${++nextId}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => pending.set(id, resolve));
    await transport.send({ jsonrpc: '2.0', id, ...(request as { method: string; params?: Record<string, unknown> }) } as JSONRPCMessage);
    return toRaw((await answered) as never) as never;
  };
}

/** A task session of the official tasks client, over a connected 2026-07-28 SDK client and a raw path to its server. */
export function taskSession(client: Client, rawDispatch: RawClientDispatch, endpointId = 'mcp-devtools'): TaskEnabledSession {
  return createTaskSessionFromClient(client, {
    endpointId,
    rawDispatch,
    v2RequestFraming: { protocolVersion: REVISION, clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
}
