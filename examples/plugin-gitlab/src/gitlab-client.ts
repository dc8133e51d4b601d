import { identityFrom, identitySettings, secret, transportLimitsFrom, Type, UpstreamClient, VERSION, type Settings } from 'mcp-devtools/plugin';

/** The plugin's settings: flags, environment, .env, ~/.mcp/configs.json ("gitlab" section) or the config file. */
export const GitlabSettings = Type.Object({
  GITLAB_TOKEN: secret(Type.String({ default: '', description: 'GitLab access token (personal, project or group) with the read_api scope.' })),
  GITLAB_API_URL: Type.String({ default: 'https://gitlab.com/api/v4', description: 'GitLab REST API base URL; for GitLab Self-Managed use https://HOST/api/v4.' }),
  GITLAB_AUTH_SCHEME: Type.Union([Type.Literal('private-token'), Type.Literal('bearer')], {
    default: 'private-token',
    description: 'How the token is sent: the PRIVATE-TOKEN header (access tokens) or Authorization: Bearer (OAuth tokens).',
  }),
  ...identitySettings('GITLAB', 'GITLAB_TOKEN'),
});

/** The GitLab REST client: auth, timeouts, retries, rate limits, path safety and size caps come with it. */
export function createGitlabClient(settings: Settings): UpstreamClient {
  const { GITLAB_TOKEN: token, GITLAB_AUTH_SCHEME, GITLAB_API_URL } = settings.of(GitlabSettings);
  const header: Record<string, string> = GITLAB_AUTH_SCHEME === 'bearer' ? { authorization: `Bearer ${token}` } : { 'private-token': token };
  return new UpstreamClient({
    vendor: 'gitlab',
    label: 'GitLab',
    examplePath: '/projects/GROUP%2FPROJECT/pipelines',
    baseUrl: GITLAB_API_URL,
    baseUrlSetting: 'GITLAB_API_URL',
    apiPrefix: '/api/v4',
    auth: () => (token === '' ? undefined : header),
    missingCredentials: 'GitLab credentials are not configured: set GITLAB_TOKEN to an access token with the read_api scope.',
    secretMaterial: () => token,
    headers: { accept: 'application/json', 'user-agent': `mcp-devtools-plugin-gitlab/1.0.0 mcp-devtools/${VERSION}` },
    ...identityFrom(settings, 'GITLAB'),
    ...transportLimitsFrom(settings),
  });
}
