import { identityFrom, identitySettings, secret, transportLimitsFrom, Type, UpstreamClient, VERSION, type Settings } from 'mcp-devtools/plugin';

/** The plugin's settings: flags, environment, .env, ~/.mcp/configs.json ("linear" section) or the config file. */
export const LinearSettings = Type.Object({
  LINEAR_API_KEY: secret(Type.String({ default: '', description: 'Linear personal API key (Settings > Security & access), or an OAuth token as "Bearer TOKEN".' })),
  LINEAR_API_URL: Type.String({ default: 'https://api.linear.app', description: 'Linear API base URL; GraphQL is served at /graphql under it.' }),
  ...identitySettings('LINEAR', 'LINEAR_API_KEY'),
});

/**
 * The Linear client. Every tool is GraphQL: a route `{ graphql: { document, variables } }` is sent as a POST of
 * `{query, variables}` to `graphqlPath` under the base URL. A personal API key is the whole Authorization header.
 */
export function createLinearClient(settings: Settings): UpstreamClient {
  const { LINEAR_API_KEY: key, LINEAR_API_URL } = settings.of(LinearSettings);
  return new UpstreamClient({
    vendor: 'linear',
    label: 'Linear',
    baseUrl: LINEAR_API_URL,
    baseUrlSetting: 'LINEAR_API_URL',
    graphqlPath: '/graphql',
    auth: () => (key === '' ? undefined : { authorization: key }),
    missingCredentials: 'Linear credentials are not configured: set LINEAR_API_KEY to a personal API key.',
    secretMaterial: () => key,
    headers: { accept: 'application/json', 'user-agent': `mcp-devtools-plugin-linear/1.0.0 mcp-devtools/${VERSION}` },
    ...identityFrom(settings, 'LINEAR'),
    ...transportLimitsFrom(settings),
  });
}
