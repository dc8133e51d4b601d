import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient } from '../../core/http/upstream-client.js';
import { identityFrom } from '../../core/http/vendor-settings.js';
import { mapProductPath, parseApiPrefixes, type ProductPaths } from '../atlassian/api-paths.js';
import { ATLASSIAN_HEADERS } from '../atlassian/request-headers.js';
import { atlassianTransportLimits, basicAuth } from '../atlassian/settings.js';

/** The credential Bitbucket calls use, chosen as the reference server chooses it. */
export interface BitbucketCredential {
  /** The setting that holds the secret, for the identity label. */
  secretKey: 'ATLASSIAN_API_TOKEN' | 'ATLASSIAN_BITBUCKET_APP_PASSWORD';
  user: string;
  secret: string;
}

/**
 * The reference's order: an Atlassian API token (ATLASSIAN_USER_EMAIL + ATLASSIAN_API_TOKEN) when both are set,
 * else a Bitbucket app password (ATLASSIAN_BITBUCKET_USERNAME + ATLASSIAN_BITBUCKET_APP_PASSWORD).
 */
export function bitbucketCredential(settings: Settings): BitbucketCredential | undefined {
  const email = settings.get<string>('ATLASSIAN_USER_EMAIL');
  const token = settings.get<string>('ATLASSIAN_API_TOKEN');
  if (email !== '' && token !== '') return { secretKey: 'ATLASSIAN_API_TOKEN', user: email, secret: token };
  const username = settings.get<string>('ATLASSIAN_BITBUCKET_USERNAME');
  const password = settings.get<string>('ATLASSIAN_BITBUCKET_APP_PASSWORD');
  if (username !== '' && password !== '') return { secretKey: 'ATLASSIAN_BITBUCKET_APP_PASSWORD', user: username, secret: password };
  return undefined;
}

export const DEFAULT_CREDENTIAL_LABEL = 'ATLASSIAN_API_TOKEN or ATLASSIAN_BITBUCKET_APP_PASSWORD';

/**
 * The Bitbucket client: BITBUCKET_BASE_URL (default https://api.bitbucket.org), paths relative to /2.0 (the
 * first of BITBUCKET_API_PREFIXES is prepended unless the path already starts with one), Basic auth.
 */
export function createBitbucketClient(settings: Settings): UpstreamClient {
  const credential = bitbucketCredential(settings);
  const identity = identityFrom(settings, 'BITBUCKET');
  const paths: ProductPaths = {
    label: 'Bitbucket',
    settingKey: 'BITBUCKET_API_PREFIXES',
    prefixes: parseApiPrefixes(settings.get<string>('BITBUCKET_API_PREFIXES'), 'BITBUCKET_API_PREFIXES'),
    prependFirst: true,
    example: '/repositories/WORKSPACE/REPO/pullrequests',
  };
  return new UpstreamClient({
    vendor: 'bitbucket',
    label: 'Bitbucket',
    baseUrl: settings.get<string>('BITBUCKET_BASE_URL'),
    baseUrlSetting: 'BITBUCKET_BASE_URL',
    auth: () => (credential === undefined ? undefined : basicAuth(credential.user, credential.secret)),
    missingCredentials:
      'Bitbucket is not configured: set ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (an Atlassian API token with Bitbucket scopes), ' +
      'or ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD (in the environment, ./.env, or the "bitbucket" section of ~/.mcp/configs.json).',
    secretMaterial: () => (credential === undefined ? '' : `${credential.user}\0${credential.secret}`),
    credentialLabel: identity.credentialLabel === DEFAULT_CREDENTIAL_LABEL && credential !== undefined ? credential.secretKey : identity.credentialLabel,
    environment: identity.environment,
    headers: ATLASSIAN_HEADERS,
    mapPath: (path) => mapProductPath(path, paths),
    ...atlassianTransportLimits(settings),
    expect: 'lenient',
  });
}
