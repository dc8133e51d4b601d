import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import { noAuthentication, type Authenticator } from './authenticator.js';
import { OidcAuthenticator } from './oidc-authenticator.js';
import { TokenAuthenticator } from './token-authenticator.js';

/**
 * The authenticator MCP_AUTH_MODE selects; its settings are checked now, so a mistake fails start-up. `resource`
 * is the public endpoint (MCP_PUBLIC_URL): the audience OIDC tokens must name unless MCP_OIDC_AUDIENCE says otherwise.
 */
export async function createAuthenticator(settings: Settings, logger: Logger, resource?: string): Promise<Authenticator> {
  switch (settings.get<string>('MCP_AUTH_MODE')) {
    case 'tokens':
      return TokenAuthenticator.open(settings.get<string>('MCP_AUTH_TOKENS_FILE'), logger);
    case 'oidc':
      return OidcAuthenticator.fromSettings(settings, logger, resource);
    default:
      return noAuthentication;
  }
}
