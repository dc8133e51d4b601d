import type { IncomingMessage, ServerResponse } from 'node:http';
import { METADATA_PATH, type PublicEndpoint } from './public-endpoint.js';

/** The OAuth 2.0 Protected Resource Metadata document (RFC 9728 2) this server publishes. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  scopes_supported?: string[];
  resource_name: string;
}

/**
 * With MCP_AUTH_MODE=oidc the server is an OAuth protected resource, and MCP (from 2025-06-18) requires it to
 * say where its tokens come from: the metadata names the resource (the public endpoint), the issuer as its
 * authorization server, how the token is sent, and the scopes when configured. A client that receives a 401
 * follows `resource_metadata` in its `WWW-Authenticate` here, then to the issuer.
 */
export class ProtectedResource {
  readonly metadata: ProtectedResourceMetadata;
  private readonly paths: Set<string>;

  constructor(
    readonly endpoint: PublicEndpoint,
    issuer: string,
    scopes: readonly string[],
  ) {
    this.metadata = {
      resource: endpoint.resource.href,
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      ...(scopes.length > 0 ? { scopes_supported: [...scopes] } : {}),
      resource_name: 'mcp-devtools',
    };
    // The root form, the form for the public path (a proxy forwards it as is), and the one for /mcp (a proxy
    // that strips its prefix): all three name the one resource this server is.
    this.paths = new Set([METADATA_PATH, endpoint.metadataUrl.pathname, `${METADATA_PATH}/mcp`]);
  }

  /** The `WWW-Authenticate` parameter that points a client at the metadata. */
  get challengeParameter(): string {
    return `resource_metadata="${this.endpoint.metadataUrl.href}"`;
  }

  /** Answers a request for the metadata; false for any other path. Public and cacheable: it holds no secret. */
  route(request: IncomingMessage, response: ServerResponse): boolean {
    const path = (request.url ?? '/').split('?', 1)[0]!.replace(/(.)\/+$/, '$1');
    if (!this.paths.has(path)) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end('{"error":"method_not_allowed"}');
      return true;
    }
    const body = JSON.stringify(this.metadata);
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600', 'access-control-allow-origin': '*' });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  }
}

/** The scopes setting as a list: space- or comma-separated. */
export function scopesOf(setting: string): string[] {
  return setting.split(/[\s,]+/).filter(Boolean);
}
