import Type from 'typebox';
import { StartupError } from '../../core/errors/tool-error.js';

/** Settings of the server's public identity over Streamable HTTP. Registered in server-settings.ts. */
export const PublicEndpointSettings = Type.Object({
  MCP_PUBLIC_URL: Type.String({
    default: '',
    description:
      "The URL clients use to reach the MCP endpoint (behind a proxy: its public address, e.g. https://mcp.example.com/mcp). Empty: this server's own listening address. With MCP_AUTH_MODE=oidc it is the resource tokens must be issued for.",
  }),
  MCP_OIDC_SCOPES: Type.String({
    default: '',
    description: 'Scopes listed as scopes_supported in the protected resource metadata (space- or comma-separated); empty: none listed.',
  }),
});

/** Where the server is reached, as clients see it. */
export interface PublicEndpoint {
  /** The canonical URL of the MCP endpoint: the resource OAuth tokens are issued for (RFC 8707, RFC 9728). */
  resource: URL;
  /** Its protected resource metadata (RFC 9728 3.1: the well-known path inserted before the resource's path). */
  metadataUrl: URL;
  /** Whether MCP_PUBLIC_URL named it (otherwise it is the listening address). */
  configured: boolean;
}

export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The public endpoint: MCP_PUBLIC_URL when set (checked: an absolute http(s) URL without query or fragment; a
 * trailing slash is dropped, as the canonical form has none), otherwise the URL the server listens on.
 */
export function publicEndpoint(configured: string, listening: string): PublicEndpoint {
  const resource = configured === '' ? new URL(listening) : parsePublicUrl(configured);
  if (resource.pathname.length > 1 && resource.pathname.endsWith('/')) resource.pathname = resource.pathname.replace(/\/+$/, '');
  const metadataUrl = new URL(resource.origin);
  metadataUrl.pathname = `${METADATA_PATH}${resource.pathname === '/' ? '' : resource.pathname}`;
  return { resource, metadataUrl, configured: configured !== '' };
}

function parsePublicUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StartupError(`MCP_PUBLIC_URL=${JSON.stringify(value)} is not a URL; give the address clients use, e.g. https://mcp.example.com/mcp.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new StartupError(`MCP_PUBLIC_URL=${value} must be an http:// or https:// URL.`);
  if (url.search !== '' || url.hash !== '')
    throw new StartupError(`MCP_PUBLIC_URL=${value} must not have a query or a fragment: it names the resource tokens are issued for.`);
  if (url.username !== '' || url.password !== '') throw new StartupError('MCP_PUBLIC_URL must not carry credentials.');
  return url;
}
