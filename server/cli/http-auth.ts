import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import { createAuthenticator } from '../auth/create-authenticator.js';
import { ProtectedResource, scopesOf } from '../auth/protected-resource.js';
import type { PublicEndpoint } from '../auth/public-endpoint.js';
import type { HttpAuth } from '../transports/http.js';

/** Listening addresses that are no address a client can use. */
const UNSPECIFIED = new Set(['0.0.0.0', '[::]']);

/**
 * The authentication MCP_AUTH_MODE selects, for a server reached at `endpoint`. With OIDC the server is an OAuth
 * protected resource: tokens must be issued for the endpoint, and it publishes where they come from (RFC 9728).
 */
export async function openHttpAuth(settings: Settings, logger: Logger, endpoint: PublicEndpoint): Promise<HttpAuth> {
  const authenticator = await createAuthenticator(settings, logger, endpoint.resource.href);
  if (authenticator.mode !== 'oidc') return { authenticator };
  const protectedResource = new ProtectedResource(endpoint, settings.get<string>('MCP_OIDC_ISSUER'), scopesOf(settings.get<string>('MCP_OIDC_SCOPES')));
  if (!endpoint.configured && UNSPECIFIED.has(endpoint.resource.hostname)) {
    logger.warn(
      { resource: endpoint.resource.href },
      'MCP_PUBLIC_URL is not set and the server listens on all addresses: clients cannot get a token for this resource from the metadata. Set MCP_PUBLIC_URL to the address clients use.',
    );
  }
  logger.info({ metadata: endpoint.metadataUrl.href, resource: endpoint.resource.href }, 'OAuth protected resource metadata published');
  return { authenticator, protectedResource };
}
