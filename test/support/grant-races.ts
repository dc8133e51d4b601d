import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { basename, dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';

/**
 * What the race tests of single-use grants look at: the audit records of every writer of a log, and tool calls
 * sent each on a connection of its own (so `--workers` hands them to different workers, as a balancer would
 * spread them over replicas).
 */

export interface AuditedCall {
  tool: string;
  principal: { subject: string };
  decision: { effect: string; approvalId?: string } | null;
  outcome: { status: 'ok' } | { status: 'error'; code: string };
}

/**
 * Every record of the log at `path` and of the logs written beside it by other writers of the same setting
 * (`<log>.<writer>`), whichever layout the server uses for several writers; head files are not records.
 */
export function auditRecordsOf(path: string): AuditedCall[] {
  const dir = dirname(path);
  if (!existsSync(dir)) return [];
  const name = basename(path);
  const files = readdirSync(dir).filter((f) => (f === name || f.startsWith(`${name}.`)) && !/\.head(\.tmp)?$/.test(f) && !f.endsWith('.tmp'));
  return files.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as AuditedCall),
  );
}

/** The audit records of calls the policy allowed under `approvalId`: one per time the grant was used. */
export function allowedUnder(records: readonly AuditedCall[], approvalId: string): AuditedCall[] {
  return records.filter((r) => r.decision?.effect === 'allow' && r.decision.approvalId === approvalId);
}

/** The decision a result carries in `_meta` (a refusal or a hold). */
export function decisionIn(result: CallToolResult): { effect: string; approvalId?: string } | undefined {
  return result._meta?.decision as { effect: string; approvalId?: string } | undefined;
}

/**
 * One JSON-RPC tools/call on a connection of its own (no MCP session: the server answers single requests),
 * with the caller's bearer token. Resolves with the call's result; a JSON-RPC error rejects.
 */
export function callOnNewConnection(url: string, name: string, args: Record<string, unknown>, token?: string): Promise<CallToolResult> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', connection: 'close' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          const answer = JSON.parse(text) as { result?: CallToolResult; error?: { message: string } };
          if (answer.result === undefined) throw new Error(`JSON-RPC error: ${answer.error?.message ?? text}`);
          resolve(answer.result);
        } catch (error) {
          reject(new Error(`HTTP ${res.statusCode}: ${(error as Error).message}: ${text.slice(0, 300)}`));
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `count` copies of one call, all sent at once; the results in the order the calls were made. */
export function race<T>(count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(i)));
}

/** An HTTP answer read off a raw connection. */
export interface RawAnswer {
  status: number;
  setCookies: string[];
  body: string;
}

/**
 * Sends `count` copies of one GET, each on a connection of its own to the next of `origins` in turn: every
 * connection is opened first, then all the requests are written in the same tick, so they reach the servers
 * together, as a browser's retries or a replayed link arriving at once would (an HTTP client opening its
 * connections one by one would spread them over milliseconds).
 */
export async function simultaneousGets(origins: readonly string[], count: number, path: string, headers: Record<string, string>): Promise<RawAnswer[]> {
  const sockets = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const { hostname, port } = new URL(origins[i % origins.length]!);
      return new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => resolve(socket));
        socket.once('error', reject);
      });
    }),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.once('end', () => resolve(Buffer.concat(chunks)));
        socket.once('error', reject);
      }),
  );
  sockets.forEach((socket, i) => {
    const host = new URL(origins[i % origins.length]!).host;
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
  return (await Promise.all(answers)).map(parseAnswer);
}

function parseAnswer(raw: Buffer): RawAnswer {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]),
    setCookies: headerLines.filter((l) => /^set-cookie:/i.test(l)).map((l) => l.slice(l.indexOf(':') + 1).trim()),
    body: text.slice(end + 4),
  };
}
