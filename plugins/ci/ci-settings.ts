import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';
import { identitySettings } from '../../core/http/vendor-settings.js';
import { WaitPollSetting } from '../../core/vendor/run-wait.js';

// The ci plugin reads the credentials the vendor plugins declare (a plugin never imports another), so it declares
// them alike (same type, default and secrecy: the settings cascade refuses a clash). What is configured decides
// which vendors a report asks.

/** The Bitbucket plugin's default credential label, repeated so that both declarations agree. */
const BITBUCKET_LABEL = 'BITBUCKET_ACCESS_TOKEN, ATLASSIAN_API_TOKEN or ATLASSIAN_BITBUCKET_APP_PASSWORD';

export const CiSettings = Type.Object({
  GITHUB_TOKEN: secret(Type.String({ default: '', description: 'GitHub token; ci_* tools read checks, statuses, jobs and logs with it.' })),
  GITHUB_API_URL: Type.String({ default: 'https://api.github.com', description: 'GitHub REST API base URL.' }),
  ...identitySettings('GITHUB', 'GITHUB_TOKEN'),
  CIRCLECI_TOKEN: secret(Type.String({ default: '', description: 'CircleCI personal API token; ci_* tools read jobs, steps and tests with it.' })),
  CIRCLECI_BASE_URL: Type.String({ default: 'https://circleci.com', description: 'CircleCI base URL (the API is under /api/v2).' }),
  ...identitySettings('CIRCLECI', 'CIRCLECI_TOKEN'),
  BITBUCKET_ACCESS_TOKEN: secret(Type.String({ default: '', description: 'Bitbucket access token (Bearer); ci_* tools read pipelines with it.' })),
  ATLASSIAN_USER_EMAIL: Type.String({ default: '', description: 'Atlassian account email (Basic auth with ATLASSIAN_API_TOKEN).' }),
  ATLASSIAN_API_TOKEN: secret(Type.String({ default: '', description: 'Atlassian API token of ATLASSIAN_USER_EMAIL (Basic auth).' })),
  ATLASSIAN_BITBUCKET_USERNAME: Type.String({ default: '', description: 'Bitbucket username for app-password auth.' }),
  ATLASSIAN_BITBUCKET_APP_PASSWORD: secret(Type.String({ default: '', description: 'Bitbucket app password of ATLASSIAN_BITBUCKET_USERNAME.' })),
  BITBUCKET_BASE_URL: Type.String({ default: 'https://api.bitbucket.org', description: 'Bitbucket API base URL.' }),
  ...identitySettings('BITBUCKET', BITBUCKET_LABEL),
  ...WaitPollSetting,
});
