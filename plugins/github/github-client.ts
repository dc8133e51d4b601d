import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient, type UpstreamClientOptions } from '../../core/http/upstream-client.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { credentialModeFrom, credentialModeSettings, identityFrom, identitySettings, transportLimitsFrom } from '../../core/http/vendor-settings.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { WaitPollSetting } from '../../core/vendor/run-wait.js';

/**
 * The shape guards of `github_graphql`, an operator's to set: GitHub bounds a query's cost itself (nodes, rate
 * limit points), but a depth or field bound refused here costs nothing of the token's hourly budget.
 */
export const GithubGraphqlSettings = Type.Object({
  GITHUB_GRAPHQL_MAX_DEPTH: Type.Integer({ minimum: 1, default: 15, description: 'Most levels of nested fields a github_graphql document may have.' }),
  GITHUB_GRAPHQL_MAX_FIELDS: Type.Integer({
    minimum: 1,
    default: 1000,
    description: 'Most fields a github_graphql document may select, aliases and fragment spreads counted.',
  }),
  GITHUB_GRAPHQL_MAX_BYTES: Type.Integer({
    minimum: 1,
    default: 102_400,
    description: 'Most bytes a github_graphql document may have, comments and layout included (it is sent printed, without them).',
  }),
  GITHUB_GRAPHQL_MUTATIONS: Type.Boolean({
    default: false,
    description: 'Let github_graphql send mutations (it is then listed as a write; MCP_READ_ONLY still refuses them).',
  }),
});

export const GithubSettings = Type.Object({
  GITHUB_TOKEN: secret(
    Type.String({
      default: '',
      description:
        'GitHub token (fine-grained or classic): read access for the reads; write access to issues, pull requests, contents (merges) and Actions for the writes.',
    }),
  ),
  GITHUB_API_URL: Type.String({
    default: 'https://api.github.com',
    description: 'GitHub REST API base URL; for GitHub Enterprise Server use https://HOST/api/v3 (the path is kept).',
  }),
  ...identitySettings('GITHUB', 'GITHUB_TOKEN'),
  ...credentialModeSettings('GITHUB', 'GitHub'),
  ...GithubGraphqlSettings.properties,
  ...WaitPollSetting,
});

/** The REST API version every request pins, so a GitHub-side default change cannot alter the payloads. */
export const GITHUB_API_VERSION = '2022-11-28';

/** Media types GitHub answers with the same resource in another form: a pull request as a diff, a file raw. */
export const DIFF_MEDIA_TYPE = 'application/vnd.github.diff';
export const RAW_MEDIA_TYPE = 'application/vnd.github.raw+json';

/** A GitHub client that knows whether it speaks to GitHub Enterprise Server, which lacks some of github.com's API. */
export class GithubClient extends UpstreamClient {
  constructor(
    readonly enterpriseServer: boolean,
    options: UpstreamClientOptions,
  ) {
    super(options);
  }
}

/** Whether a tool's client is GitHub Enterprise Server's (false when there is none: start-up reading a route). */
export const onEnterpriseServer = (upstream: UpstreamBinding | undefined): boolean =>
  (upstream as Partial<GithubClient> | undefined)?.enterpriseServer === true;

/**
 * The GitHub REST client: Bearer auth, GitHub's media type (or `accept`) and API version, a User-Agent
 * (GitHub refuses requests without one). Clients that differ only in `accept` share one identity.
 */
export function createGithubClient(settings: Settings, accept = 'application/vnd.github+json'): GithubClient {
  const { GITHUB_TOKEN: token, GITHUB_API_URL } = settings.of(GithubSettings);
  return new GithubClient(isEnterpriseServer(GITHUB_API_URL), {
    vendor: 'github',
    label: 'GitHub',
    baseUrl: GITHUB_API_URL,
    baseUrlSetting: 'GITHUB_API_URL',
    examplePath: '/repos/OWNER/REPO',
    auth: () => (token === '' ? undefined : { authorization: `Bearer ${token}` }),
    missingCredentials: 'GitHub credentials are not configured: set GITHUB_TOKEN to a token with access to the repository.',
    secretMaterial: () => token,
    headers: {
      accept,
      'x-github-api-version': GITHUB_API_VERSION,
      'user-agent': `${SERVER_NAME}/${VERSION}`,
    },
    expect: 'json',
    graphqlBaseUrl: graphqlBaseUrl(GITHUB_API_URL),
    linking: {
      mode: credentialModeFrom(settings, 'GITHUB'),
      vendor: 'github',
      setting: 'GITHUB_CREDENTIALS',
      auth: (linked) => ({ authorization: `Bearer ${linked}` }),
    },
    ...identityFrom(settings, 'GITHUB'),
    ...transportLimitsFrom(settings),
  });
}

/**
 * Where GraphQL is served when it is not under the REST base URL: GitHub Enterprise Server answers REST under
 * `https://HOST/api/v3` and GraphQL at `https://HOST/api/graphql` (github.com and GHE.com at `/graphql` of the API host).
 */
export function graphqlBaseUrl(apiUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    return undefined; // the client names GITHUB_API_URL when it is not a URL
  }
  const path = url.pathname.replace(/\/+$/, '');
  return path.endsWith('/api/v3') ? `${url.origin}${path.slice(0, -'/v3'.length)}` : undefined;
}

/** True when the GitHub at this API URL is GitHub Enterprise Server (REST under `/api/v3`). */
export const isEnterpriseServer = (apiUrl: string): boolean => graphqlBaseUrl(apiUrl) !== undefined;

/**
 * The web address of the GitHub that GITHUB_API_URL serves, for the links of results GitHub answers without one
 * (a rerun, a cancel, a dispatch): `https://api.github.com` and `https://api.TENANT.ghe.com` drop their `api.`
 * host prefix, GitHub Enterprise Server's `https://HOST/api/v3` its path; anything else is taken as it is.
 */
export function githubWebUrl(apiUrl: string): string {
  const url = new URL(apiUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/v3')) return `${url.origin}${path.slice(0, -'/api/v3'.length)}`;
  if (url.hostname.startsWith('api.')) url.hostname = url.hostname.slice('api.'.length);
  return `${url.origin}${path}`;
}
