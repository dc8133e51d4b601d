import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { BitbucketClient, BitbucketDeploymentSetting, resolveBitbucketDeployment } from './deployment.js';
import { identityFrom, identitySettings } from '../../core/http/vendor-settings.js';
import { WaitPollSetting } from '../../core/vendor/run-wait.js';
import {
  AccountSettings,
  apiPrefixesSetting,
  ATLASSIAN_HEADERS,
  atlassianTransportLimits,
  basicAuth,
  mapProductPath,
  parseApiPrefixes,
  type ProductPaths,
} from '../atlassian/product.js';

/** The credential Bitbucket calls use: an access token (Bearer), or the reference server's Basic pairs. */
export type BitbucketCredential =
  | { secretKey: 'BITBUCKET_ACCESS_TOKEN'; scheme: 'bearer'; secret: string }
  | { secretKey: 'ATLASSIAN_API_TOKEN' | 'ATLASSIAN_BITBUCKET_APP_PASSWORD'; scheme: 'basic'; user: string; secret: string };

/**
 * BITBUCKET_ACCESS_TOKEN first: a setting the reference server does not know, so whoever sets it means Bitbucket to
 * use it, even beside an Atlassian account kept for Jira. Then the reference's order: an Atlassian API token
 * (ATLASSIAN_USER_EMAIL + ATLASSIAN_API_TOKEN) when both are set, else a Bitbucket app password
 * (ATLASSIAN_BITBUCKET_USERNAME + ATLASSIAN_BITBUCKET_APP_PASSWORD).
 */
export function bitbucketCredential(settings: Settings): BitbucketCredential | undefined {
  const {
    BITBUCKET_ACCESS_TOKEN: accessToken,
    ATLASSIAN_USER_EMAIL: email,
    ATLASSIAN_API_TOKEN: token,
    ATLASSIAN_BITBUCKET_USERNAME: username,
    ATLASSIAN_BITBUCKET_APP_PASSWORD: password,
  } = settings.of(BitbucketSettings);
  if (accessToken !== '') return { secretKey: 'BITBUCKET_ACCESS_TOKEN', scheme: 'bearer', secret: accessToken };
  if (email !== '' && token !== '') return { secretKey: 'ATLASSIAN_API_TOKEN', scheme: 'basic', user: email, secret: token };
  if (username !== '' && password !== '') return { secretKey: 'ATLASSIAN_BITBUCKET_APP_PASSWORD', scheme: 'basic', user: username, secret: password };
  return undefined;
}

/** The Authorization header of a credential. */
function authHeaders(credential: BitbucketCredential): Record<string, string> {
  return credential.scheme === 'bearer' ? { authorization: `Bearer ${credential.secret}` } : basicAuth(credential.user, credential.secret);
}

/** A bb_* path that works, suggested when a path is refused. */
const EXAMPLE_PATH = '/repositories/WORKSPACE/REPO/pullrequests';

export const DEFAULT_CREDENTIAL_LABEL = 'BITBUCKET_ACCESS_TOKEN, ATLASSIAN_API_TOKEN or ATLASSIAN_BITBUCKET_APP_PASSWORD';

/** The Bitbucket plugin's settings: an access token, the Atlassian account or an app password, the API and upload limits. */
export const BitbucketSettings = Type.Object({
  BITBUCKET_ACCESS_TOKEN: secret(
    Type.String({
      default: '',
      description:
        'Bitbucket access token sent as Authorization: Bearer (a Cloud repository, project or workspace access token; a Data Center HTTP access token or personal access token). Used before the Basic credentials when set.',
    }),
  ),
  ...AccountSettings,
  ATLASSIAN_BITBUCKET_USERNAME: Type.String({
    default: '',
    description: 'Bitbucket username for app-password auth, used when ATLASSIAN_USER_EMAIL/ATLASSIAN_API_TOKEN are not both set.',
  }),
  ATLASSIAN_BITBUCKET_APP_PASSWORD: secret(Type.String({ default: '', description: 'Bitbucket app password of ATLASSIAN_BITBUCKET_USERNAME.' })),
  BITBUCKET_DEFAULT_WORKSPACE: Type.String({
    default: '',
    description: 'Default workspace of the reference server (read for compatibility; the bb_* passthroughs take full paths).',
  }),
  BITBUCKET_BASE_URL: Type.String({ default: 'https://api.bitbucket.org', description: 'Bitbucket API base URL.' }),
  BITBUCKET_API_PREFIXES: apiPrefixesSetting('/2.0', 'bb_* paths live under; the first is prepended to paths that start with none of them'),
  BITBUCKET_DEPLOYMENT: BitbucketDeploymentSetting,
  ...identitySettings('BITBUCKET', DEFAULT_CREDENTIAL_LABEL),
  ...WaitPollSetting,
  UPLOAD_MAX_FILE_BYTES: Type.Integer({ minimum: 1, default: 10 * 1024 * 1024, description: 'Largest file bb_upload sends, in bytes (decoded).' }),
  UPLOAD_MAX_TOTAL_BYTES: Type.Integer({
    minimum: 1,
    default: 25 * 1024 * 1024,
    description: 'Largest total of the files of one bb_upload call, in bytes (decoded).',
  }),
});

/**
 * The Bitbucket client: BITBUCKET_BASE_URL (default https://api.bitbucket.org), paths relative to /2.0 (the
 * first of BITBUCKET_API_PREFIXES is prepended unless the path already starts with one), Bearer or Basic auth.
 */
export function createBitbucketClient(settings: Settings): BitbucketClient {
  const credential = bitbucketCredential(settings);
  // Made once: the credential is fixed for the life of the server, and every request sends it.
  const headers = credential === undefined ? undefined : Object.freeze(authHeaders(credential));
  const { BITBUCKET_API_PREFIXES, BITBUCKET_BASE_URL, BITBUCKET_DEPLOYMENT } = settings.of(BitbucketSettings);
  const identity = identityFrom(settings, 'BITBUCKET');
  const paths: ProductPaths = {
    label: 'Bitbucket',
    settingKey: 'BITBUCKET_API_PREFIXES',
    prefixes: parseApiPrefixes(BITBUCKET_API_PREFIXES, 'BITBUCKET_API_PREFIXES'),
    prependFirst: true,
    example: EXAMPLE_PATH,
  };
  const deployment = resolveBitbucketDeployment(BITBUCKET_DEPLOYMENT, paths.prefixes);
  return new BitbucketClient(
    {
      vendor: 'bitbucket',
      label: 'Bitbucket',
      baseUrl: BITBUCKET_BASE_URL,
      baseUrlSetting: 'BITBUCKET_BASE_URL',
      examplePath: EXAMPLE_PATH,
      auth: () => headers,
      missingCredentials:
        'Bitbucket is not configured: set BITBUCKET_ACCESS_TOKEN (an access token, sent as Bearer), or ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN ' +
        '(an Atlassian API token with Bitbucket scopes), or ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD (in the environment, ./.env, ' +
        'or the "bitbucket" section of ~/.mcp/configs.json).',
      secretMaterial: () => (credential === undefined ? '' : credential.scheme === 'bearer' ? credential.secret : `${credential.user}\0${credential.secret}`),
      credentialLabel: identity.credentialLabel === DEFAULT_CREDENTIAL_LABEL && credential !== undefined ? credential.secretKey : identity.credentialLabel,
      environment: identity.environment,
      headers: ATLASSIAN_HEADERS,
      mapPath: (path) => mapProductPath(path, paths),
      ...atlassianTransportLimits(settings),
      expect: 'lenient',
    },
    deployment,
  );
}
