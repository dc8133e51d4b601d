import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One HTTP request on a connection of its own (no agent, `connection: close`), so a `--workers` cluster hands
 * each to the next worker, and with any header a browser would send, `Host` included (fetch cannot set it).
 */
export function onFreshConnection(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', agent: false, headers: { connection: 'close', ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A JSON-RPC tools/call on a connection of its own, answered as one JSON body. */
export async function callOnFreshConnection(url: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const answer = await onFreshConnection(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
  return JSON.parse(answer.text) as unknown;
}
