import type { ClientInfo } from '../../core/plugin/call.js';

/**
 * Who a 2025-era client is, over stateless Streamable HTTP. Each POST gets a fresh server that saw no
 * `initialize`, so the name and version the client gave there were lost by its first call. The server now
 * answers `initialize` with an `Mcp-Session-Id` that carries them (the 2025 revisions let a server assign one;
 * clients send it back on every request), and reads them back from each request's header: no state in the
 * process, so any replica behind a load balancer reads any client's. The id is no credential and holds no
 * secret: a client names itself as it likes, in `initialize` or here. A request without one (curl, a client
 * that drops the id) is named by its User-Agent's first product (`curl/8.5.0`: curl 8.5.0).
 */
const PREFIX = 'mcp-devtools.client.';
/** A client names itself as it likes: its name and version are cut, as on the call line. */
const MAX_FIELD = 128;

/** The `Mcp-Session-Id` for the client an `initialize` request names; undefined for any other request. */
export function sessionIdFor(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { clientInfo?: unknown } };
  if (method !== 'initialize') return undefined;
  const client = clientOf(params?.clientInfo);
  if (client === undefined) return undefined;
  return PREFIX + Buffer.from(JSON.stringify(client), 'utf8').toString('base64url');
}

/** The client a request's `Mcp-Session-Id` (one this server handed out) names, else its User-Agent's. */
export function clientOfRequest(sessionId: string | undefined, userAgent: string | undefined): ClientInfo | undefined {
  return clientOfSession(sessionId) ?? clientOfUserAgent(userAgent);
}

function clientOfSession(sessionId: string | undefined): ClientInfo | undefined {
  if (sessionId === undefined || !sessionId.startsWith(PREFIX) || sessionId.length > 1024) return undefined;
  try {
    return clientOf(JSON.parse(Buffer.from(sessionId.slice(PREFIX.length), 'base64url').toString('utf8')));
  } catch {
    return undefined;
  }
}

/** `curl/8.5.0 (x86_64)`: curl 8.5.0; `node`: node. */
function clientOfUserAgent(userAgent: string | undefined): ClientInfo | undefined {
  const product = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\/([!#$%&'*+.^_`|~0-9A-Za-z-]+))?/.exec(userAgent ?? '');
  if (product === null) return undefined;
  return clientOf({ name: product[1], version: product[2] });
}

/** A client's name and version as it gave them, cut to a length a log line takes; undefined without a name. */
export function clientOf(info: unknown): ClientInfo | undefined {
  const { name, version } = (info ?? {}) as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || name === '') return undefined;
  const cut = (text: string): string => text.slice(0, MAX_FIELD);
  return typeof version === 'string' && version !== '' ? { name: cut(name), version: cut(version) } : { name: cut(name) };
}
