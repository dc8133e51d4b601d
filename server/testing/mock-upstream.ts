import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the mock received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  params: Record<string, string>;
}

/** What the mock answers. Only `status` is needed; everything else shapes the wire behaviour. */
export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON (with `content-type: application/json`). */
  body?: unknown;
  /** Wait before sending headers (timeouts). */
  delayMs?: number;
  /** Send the body in `dripChunks` pieces, `dripMs` apart (slow bodies). */
  dripMs?: number;
  dripChunks?: number;
  /** Destroy the connection: before any byte, or after half of the body. */
  reset?: 'before-headers' | 'mid-body';
}

export type MockHandler = (request: RecordedRequest) => MockReply | Promise<MockReply>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: MockHandler;
}

/**
 * A vendor API stand-in: a real HTTP server on 127.0.0.1 with a random port, speaking the vendor's wire format
 * (status codes, `Link`, `Retry-After`, `ETag`...). It records every request it gets, so tests can assert
 * what was sent (and that nothing went elsewhere). Unmatched requests get a GitHub-style 404.
 */
export class MockUpstream {
  readonly requests: RecordedRequest[] = [];
  private routes: Route[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<MockUpstream> {
    let mock!: MockUpstream;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void mock.dispatch(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    mock = new MockUpstream(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      mock.sockets.add(socket);
      socket.on('close', () => mock.sockets.delete(socket));
    });
    return mock;
  }

  /** Registers a handler; `:name` segments capture parameters, `*` matches the rest. Later routes win. */
  on(method: string, path: string | RegExp, handler: MockHandler | MockReply): this {
    const names: string[] = [];
    const pattern =
      path instanceof RegExp
        ? path
        : new RegExp(
            `^${path
              .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '.*')
              .replace(/:(\w+)/g, (_, n: string) => {
                names.push(n);
                return '([^/]+)';
              })}$`,
          );
    const fn: MockHandler = typeof handler === 'function' ? handler : () => handler;
    this.routes.unshift({ method: method.toUpperCase(), pattern, names, handler: fn });
    return this;
  }

  /** Forgets routes and recorded requests. */
  reset(): void {
    this.routes = [];
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async dispatch(method: string, url: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse): Promise<void> {
    // The request target is a path: never let a `//host/...` form be read as another host, or a malformed one
    // throw out of the server (a request the mock cannot parse is still recorded, and answered 400).
    let parsed: URL;
    try {
      parsed = new URL(`http://mock${url.startsWith('/') ? '' : '/'}${url}`);
    } catch {
      this.requests.push({ method, path: url, query: new URLSearchParams(), url, headers, body, params: {} });
      await send(res, { status: 400, body: { message: `mock cannot parse the request target ${JSON.stringify(url)}` } });
      return;
    }
    const recorded: RecordedRequest = { method, path: parsed.pathname, query: parsed.searchParams, url, headers, body, params: {} };
    this.requests.push(recorded);
    const route = this.routes.find((r) => r.method === method && r.pattern.test(parsed.pathname));
    let reply: MockReply;
    if (route === undefined) {
      reply = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    } else {
      const match = route.pattern.exec(parsed.pathname)!;
      route.names.forEach((n, i) => (recorded.params[n] = decodedParam(match[i + 1] ?? '')));
      try {
        reply = await route.handler(recorded);
      } catch (error) {
        reply = { status: 500, body: { message: `mock handler failed: ${(error as Error).message}` } };
      }
    }
    await send(res, reply);
  }
}

/** A path parameter as the vendor would read it; a malformed escape is kept as written rather than thrown. */
function decodedParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function send(res: ServerResponse, reply: MockReply): Promise<void> {
  if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  if (reply.reset === 'before-headers') {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = { ...reply.headers };
  let payload: Buffer;
  if (reply.body === undefined) payload = Buffer.alloc(0);
  else if (Buffer.isBuffer(reply.body)) payload = reply.body;
  else if (typeof reply.body === 'string') payload = Buffer.from(reply.body, 'utf8');
  else {
    payload = Buffer.from(JSON.stringify(reply.body), 'utf8');
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (reply.reset === 'mid-body') {
    res.writeHead(reply.status ?? 200, { ...headers, 'content-length': String(payload.length) });
    res.write(payload.subarray(0, Math.floor(payload.length / 2)));
    setTimeout(() => res.socket?.destroy(), 10);
    return;
  }
  res.writeHead(reply.status ?? 200, headers);
  if (reply.dripMs !== undefined) {
    const pieces = reply.dripChunks ?? 10;
    const size = Math.ceil(payload.length / pieces) || 1;
    for (let i = 0; i < payload.length; i += size) {
      if (res.destroyed) return;
      res.write(payload.subarray(i, i + size));
      await new Promise((r) => setTimeout(r, reply.dripMs));
    }
    res.end();
    return;
  }
  res.end(payload);
}
