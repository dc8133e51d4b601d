import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent } from 'undici';
import { guardedPool } from './egress-connector.js';
import type { EgressGuard } from './egress-guard.js';

/**
 * One upstream exchange over undici's pooled `request` (keep-alive connections reused across calls), about
 * 0.3 ms a request cheaper than `fetch`, which builds WHATWG Request, Response and stream objects for each.
 * What fetch did for us is kept: bodies compressed with gzip, deflate or br are asked for and decoded (error
 * bodies too, since their text goes into the error), and redirects are left to the caller.
 * Loaded on the first upstream request (a lazy chunk), so a server that never calls out starts without it.
 */
export interface PooledResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The (decoded) body; read it whole or destroy it, or the connection is not reused. */
  body: Readable;
}

export interface PooledRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  /** Set for a URL the server did not build from a vendor's base URL: connections go through this guard's pool. */
  egress?: EgressGuard;
}

/** What fetch asks for by default; a caller's own Accept-Encoding wins. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

let agent: Agent | undefined;

// Keep-alive sockets are unreferenced while idle, so the pool never holds a finished process open.
// A vendor's "Keep-Alive: timeout=N" is trusted to within half a second: undici's default margin (2 s)
// meant a vendor saying timeout=1 or 2 got a new connection (and a socket error) for every request.
const POOL_OPTIONS = { keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, keepAliveTimeoutThreshold: 500 };

function pool(egress: EgressGuard | undefined): Agent {
  if (egress !== undefined) return guardedPool(egress, POOL_OPTIONS);
  agent ??= new Agent(POOL_OPTIONS);
  return agent;
}

export async function pooledRequest(url: URL, init: PooledRequest): Promise<PooledResponse> {
  const headers = hasHeader(init.headers, 'accept-encoding') ? init.headers : { ...init.headers, 'accept-encoding': ACCEPT_ENCODING };
  const response = await pool(init.egress).request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: init.method as 'GET',
    headers,
    body: init.body ?? null,
    signal: init.signal,
  });
  const decoded = toHeaders(response.headers);
  return { status: response.statusCode, statusText: response.statusText ?? '', headers: decoded, body: decode(response.statusCode, decoded, response.body) };
}

const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * The body as its Content-Encoding says to decode it (undici's own decoder is still experimental and warns on
 * stderr). Its Content-Length is dropped: it counted the compressed bytes, and the size cap applies to the
 * decoded ones as they are read. An encoding not known here is left as sent, as fetch does.
 */
function decode(status: number, headers: Headers, body: Readable): Readable {
  const encodings = (headers.get('content-encoding') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  if (encodings.length === 0 || status === 204 || status === 304 || encodings.length > 3 || !encodings.every((e) => e in DECODERS)) return body;
  headers.delete('content-length');
  const stages = encodings.reverse().map((e) => DECODERS[e]!());
  return pipeline([body, ...stages], () => {}) as unknown as Readable;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  for (const key in headers) if (key.toLowerCase() === name) return true;
  return false;
}

/** undici's plain header object as the WHATWG Headers the rest of the client (cache, rate limits, Link) reads. */
function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.append(name, value);
  }
  return headers;
}
