import { identityFrom, identitySettings, secret, transportLimitsFrom, Type, UpstreamClient, VERSION, type Settings } from 'mcp-devtools/plugin';

/** The plugin's settings: flags, environment, .env, ~/.mcp/configs.json ("sentry" section) or the config file. */
export const SentrySettings = Type.Object({
  SENTRY_TOKEN: secret(Type.String({ default: '', description: 'Sentry auth token (an internal integration or user token) with event:read and project:read.' })),
  SENTRY_API_URL: Type.String({ default: 'https://sentry.io/api/0', description: 'Sentry API base URL; for a region or self-hosted Sentry use https://HOST/api/0.' }),
  ...identitySettings('SENTRY', 'SENTRY_TOKEN'),
});

/**
 * The Sentry client. The base URL holds Sentry's API prefix (`/api/0`), declared as `apiPrefix` so policy
 * rules match paths as Sentry's reference writes them (`/api/0/projects/...`), as they would if `mapPath`
 * added the prefix instead.
 */
export function createSentryClient(settings: Settings): UpstreamClient {
  const token = settings.get<string>('SENTRY_TOKEN');
  return new UpstreamClient({
    vendor: 'sentry',
    label: 'Sentry',
    baseUrl: settings.get<string>('SENTRY_API_URL'),
    baseUrlSetting: 'SENTRY_API_URL',
    apiPrefix: '/api/0',
    auth: () => (token === '' ? undefined : { authorization: `Bearer ${token}` }),
    missingCredentials: 'Sentry credentials are not configured: set SENTRY_TOKEN to an auth token with event:read and project:read.',
    secretMaterial: () => token,
    headers: { accept: 'application/json', 'user-agent': `mcp-devtools-plugin-sentry/1.0.0 mcp-devtools/${VERSION}` },
    ...identityFrom(settings, 'SENTRY'),
    ...transportLimitsFrom(settings),
  });
}
