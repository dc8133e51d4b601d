import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient } from '../../core/http/upstream-client.js';
import { identityFrom, transportLimitsFrom } from '../../core/http/vendor-settings.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { CiSettings } from './ci-settings.js';

/** The clients a report asks; a vendor without credentials has none, and its checks are reported without detail. */
export interface CiClients {
  readonly github: UpstreamClient | undefined;
  readonly circleci: UpstreamClient | undefined;
  readonly bitbucket: UpstreamClient | undefined;
  /** CircleCI's base URL: step output URLs it hands out are foreign to it, held to the egress guard. */
  readonly circleciBase: string;
}

const USER_AGENT = `${SERVER_NAME}/${VERSION}`;

/** CircleCI paths are written relative to /api/v2 unless they name their API version (the v1.1 job detail). */
const underCircleciApi = (path: string): string => (/^\/api\/v[12]/.test(path) ? path : `/api/v2${path}`);

/** Each vendor's client, built once from the settings the vendor plugins read too. */
export function createCiClients(settings: Settings): CiClients {
  const s = settings.of(CiSettings);
  const limits = transportLimitsFrom(settings);
  const github =
    s.GITHUB_TOKEN === ''
      ? undefined
      : new UpstreamClient({
          vendor: 'github',
          label: 'GitHub',
          baseUrl: s.GITHUB_API_URL,
          baseUrlSetting: 'GITHUB_API_URL',
          examplePath: '/repos/OWNER/REPO',
          auth: () => ({ authorization: `Bearer ${s.GITHUB_TOKEN}` }),
          missingCredentials: 'GitHub credentials are not configured: set GITHUB_TOKEN.',
          secretMaterial: () => s.GITHUB_TOKEN,
          headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': USER_AGENT },
          expect: 'json',
          ...identityFrom(settings, 'GITHUB'),
          ...limits,
        });
  const circleci =
    s.CIRCLECI_TOKEN === ''
      ? undefined
      : new UpstreamClient({
          vendor: 'circleci',
          label: 'CircleCI',
          baseUrl: s.CIRCLECI_BASE_URL,
          baseUrlSetting: 'CIRCLECI_BASE_URL',
          examplePath: '/project/gh/ORG/REPO/pipeline',
          auth: () => ({ 'circle-token': s.CIRCLECI_TOKEN }),
          missingCredentials: 'CircleCI credentials are not configured: set CIRCLECI_TOKEN.',
          secretMaterial: () => s.CIRCLECI_TOKEN,
          headers: { accept: 'application/json', 'user-agent': USER_AGENT },
          mapPath: underCircleciApi,
          expect: 'json',
          ...identityFrom(settings, 'CIRCLECI'),
          ...limits,
        });
  return { github, circleci, bitbucket: bitbucketClient(settings), circleciBase: s.CIRCLECI_BASE_URL };
}

/** Bitbucket Cloud: an access token (Bearer) first, then the Atlassian account, then an app password, as the Bitbucket plugin orders them. */
function bitbucketClient(settings: Settings): UpstreamClient | undefined {
  const s = settings.of(CiSettings);
  const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const authorization =
    s.BITBUCKET_ACCESS_TOKEN !== ''
      ? `Bearer ${s.BITBUCKET_ACCESS_TOKEN}`
      : s.ATLASSIAN_USER_EMAIL !== '' && s.ATLASSIAN_API_TOKEN !== ''
        ? basic(s.ATLASSIAN_USER_EMAIL, s.ATLASSIAN_API_TOKEN)
        : s.ATLASSIAN_BITBUCKET_USERNAME !== '' && s.ATLASSIAN_BITBUCKET_APP_PASSWORD !== ''
          ? basic(s.ATLASSIAN_BITBUCKET_USERNAME, s.ATLASSIAN_BITBUCKET_APP_PASSWORD)
          : undefined;
  if (authorization === undefined) return undefined;
  return new UpstreamClient({
    vendor: 'bitbucket',
    label: 'Bitbucket',
    baseUrl: s.BITBUCKET_BASE_URL,
    baseUrlSetting: 'BITBUCKET_BASE_URL',
    examplePath: '/repositories/WORKSPACE/REPO/pipelines',
    auth: () => ({ authorization }),
    missingCredentials: 'Bitbucket credentials are not configured: set BITBUCKET_ACCESS_TOKEN.',
    secretMaterial: () => authorization,
    headers: { accept: 'application/json', 'user-agent': USER_AGENT },
    mapPath: (path) => (path.startsWith('/2.0/') ? path : `/2.0${path}`),
    expect: 'lenient',
    ...identityFrom(settings, 'BITBUCKET'),
    ...transportLimitsFrom(settings),
  });
}

/** A credential-less client for CircleCI's signed step output URLs: the signature is the credential, the token never leaves CircleCI. */
export function signedUrlClient(settings: Settings, origin: string, foreignOf: string, environment: string): UpstreamClient {
  return new UpstreamClient({
    vendor: 'circleci',
    label: 'CircleCI step output',
    baseUrl: origin,
    foreignOf,
    auth: () => ({}),
    missingCredentials: '',
    secretMaterial: () => '',
    credentialLabel: 'signed URL',
    environment,
    headers: { accept: 'application/json', 'user-agent': USER_AGENT },
    expect: 'json',
    ...transportLimitsFrom(settings),
  });
}
