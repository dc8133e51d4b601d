import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { UpstreamClient } from '../../core/http/upstream-client.js';
import { credentialModeFrom, credentialModeSettings, identityFrom, identitySettings, transportLimitsFrom } from '../../core/http/vendor-settings.js';
import { SERVER_NAME, VERSION } from '../../core/version.js';
import { WaitPollSetting } from '../../core/vendor/run-wait.js';

export const CircleciSettings = Type.Object({
  CIRCLECI_TOKEN: secret(Type.String({ default: '', description: 'CircleCI personal API token (sent as Circle-Token).' })),
  CIRCLECI_BASE_URL: Type.String({
    default: 'https://circleci.com',
    description: 'CircleCI base URL (the API is under /api/v2); set it for CircleCI server installations. A path in it is kept.',
  }),
  ...identitySettings('CIRCLECI', 'CIRCLECI_TOKEN'),
  ...credentialModeSettings('CIRCLECI', 'CircleCI'),
  ...WaitPollSetting,
});

/** Where CircleCI's v2 API lives under the base URL. */
export const API_PREFIX = '/api/v2';

/**
 * The one v1.1 endpoint kept reachable, for what v2 lacks: a job's detail with its steps and their output URLs
 * (circleci_logs, a wait's failure report). The rest of v1.1 stays out of reach. A further route declares any
 * job (and any VCS) of it with `*` segments.
 */
const V1_JOB_DETAIL = /^\/api\/v1\.1\/project\/(github|bitbucket|\*)\/[^/]+\/[^/]+\/(\d+|\*)$/;

/**
 * Tool paths are relative to /api/v2 (`/project/gh/acme/api/pipeline`); one that already names the prefix is
 * taken as is, as is the v1.1 job detail. Path safety (no `..`, no absolute URL) was checked before this runs,
 * so a prefixed path cannot climb out of the API.
 */
export function underApiPrefix(path: string): string {
  const [pathPart = ''] = path.split('?', 1);
  if (V1_JOB_DETAIL.test(pathPart)) return path;
  return pathPart === API_PREFIX || pathPart.startsWith(`${API_PREFIX}/`) ? path : `${API_PREFIX}${path}`;
}

/** The CircleCI v2 client: Circle-Token auth, JSON, every path under /api/v2. */
export function createCircleciClient(settings: Settings): UpstreamClient {
  const { CIRCLECI_TOKEN: token, CIRCLECI_BASE_URL } = settings.of(CircleciSettings);
  return new UpstreamClient({
    vendor: 'circleci',
    label: 'CircleCI',
    baseUrl: CIRCLECI_BASE_URL,
    baseUrlSetting: 'CIRCLECI_BASE_URL',
    examplePath: '/project/gh/ORG/REPO/pipeline',
    auth: () => (token === '' ? undefined : { 'circle-token': token }),
    missingCredentials: 'CircleCI credentials are not configured: set CIRCLECI_TOKEN to a personal API token.',
    secretMaterial: () => token,
    headers: { accept: 'application/json', 'user-agent': `${SERVER_NAME}/${VERSION}` },
    mapPath: underApiPrefix,
    expect: 'json',
    linking: {
      mode: credentialModeFrom(settings, 'CIRCLECI'),
      vendor: 'circleci',
      setting: 'CIRCLECI_CREDENTIALS',
      auth: (linked) => ({ 'circle-token': linked }),
    },
    ...identityFrom(settings, 'CIRCLECI'),
    ...transportLimitsFrom(settings),
  });
}
