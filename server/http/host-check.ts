import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ServerResponse } from 'node:http';
import type { Settings } from '../../core/config/settings.js';

/** What names a server: where it binds, the URL clients use, and the names the operator added. */
export interface ServerNames {
  bindHost: string;
  publicUrls: readonly string[];
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[];
}

/**
 * Whether a request's `Host` names this server, against DNS rebinding: a page on attacker.example whose name
 * is made to resolve to 127.0.0.1 reaches a loopback server as the same origin as the page, and the one trace
 * of it is the `Host` its browser sends, `attacker.example:PORT`. A name the attacker controls is never one of
 * the server's. Allowed: an IP address (a page can only be at one by being that server), `localhost`, this
 * machine's name, the bind address, the hosts of MCP_PUBLIC_URL and MCP_HTTP_ALLOWED_ORIGINS, and
 * MCP_HTTP_ALLOWED_HOSTS. A request without `Host` (HTTP/1.0, never a browser) passes.
 */
export class HostCheck {
  private readonly names: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(server: ServerNames) {
    const names = new Set(['localhost', normalise(hostname())]);
    names.add(normalise(server.bindHost));
    for (const url of [...server.publicUrls, ...server.allowedOrigins]) {
      const host = hostOfUrl(url);
      if (host !== undefined) names.add(host);
    }
    for (const host of server.allowedHosts) names.add(normalise(host));
    this.any = server.allowedHosts.includes('*');
    this.names = names;
  }

  /** The names of the server `settings` configure, bound to `bindHost` (the HTTP transport's, or MCP_METRICS_HOST). */
  static of(settings: Settings, bindHost: string): HostCheck {
    const list = (key: string): string[] =>
      settings
        .get<string>(key)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const optional = (key: string): string[] => (settings.has(key) ? [settings.get<string>(key)].filter(Boolean) : []);
    return new HostCheck({
      bindHost,
      publicUrls: [...optional('MCP_PUBLIC_URL'), ...optional('MCP_CONSOLE_PUBLIC_URL')],
      allowedOrigins: list('MCP_HTTP_ALLOWED_ORIGINS'),
      allowedHosts: settings.has('MCP_HTTP_ALLOWED_HOSTS') ? list('MCP_HTTP_ALLOWED_HOSTS') : [],
    });
  }

  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return true;
    if (this.any) return true;
    const host = hostOfUrl(`http://${hostHeader}`);
    if (host === undefined) return false;
    return isIP(host.replace(/^\[|\]$/g, '')) !== 0 || this.names.has(host);
  }

  /**
   * Answers 421 Misdirected Request (RFC 9110 15.5.20: this server does not answer for that authority) with
   * what to change, and nothing of what the route would have answered.
   */
  refuse(response: ServerResponse, hostHeader: string | undefined): void {
    const shown = hostOfUrl(`http://${hostHeader ?? ''}`) ?? 'that Host';
    response.writeHead(421, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(
      JSON.stringify({
        error: `This server does not answer to the host name ${shown} (a guard against DNS rebinding). If that name is this server's, add it to MCP_HTTP_ALLOWED_HOSTS.`,
      }),
    );
  }
}

/** The host of a URL, lower case and without a trailing dot (`[::1]` keeps its brackets); undefined if it is none. */
function hostOfUrl(value: string): string | undefined {
  try {
    const host = new URL(value).hostname;
    return host === '' ? undefined : normalise(host);
  } catch {
    return undefined;
  }
}

function normalise(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '');
  // The bind address may be a bare IPv6 literal; URLs bracket it.
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}
