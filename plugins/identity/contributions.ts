import type { Contributions } from '../../core/plugin/contributions.js';

/**
 * What the identity plugin adds to the server through the contribution points: linking for programs holding the
 * person's bearer token (/identity/link), the browser's way back from a vendor (/identity/callback), the console's "Connected accounts" page, and `mcp-devtools accounts`.
 * Declared here, loaded when mounted: a server over stdio loads none of them.
 */
export const IDENTITY_CONTRIBUTIONS: Contributions = {
  routes: [
    {
      prefix: '/identity/link',
      credentials: 'accounts are linked with your own bearer token (the tokens file or OIDC)',
      load: async () => (await import('./routes/link-routes.js')).linkRoutes,
    },
    {
      // The browser back from a vendor's consent page carries no credential: the route links nobody itself, it
      // hands over to the console page, which finishes the link only for the session that started it.
      prefix: '/identity/callback',
      auth: 'none',
      credentials: 'the browser coming back from a vendor needs none',
      load: async () => (await import('./routes/callback-route.js')).callbackRoute,
    },
  ],
  console: {
    pages: [{ path: 'accounts', label: 'Connected accounts' }],
    load: async () => (await import('./console/accounts-console.js')).accountsConsole,
  },
  commands: [
    {
      verb: 'accounts',
      description: 'link, list or disconnect your own vendor accounts (acting as you upstream), or rotate the vault key',
      load: async () => (await import('./cli/accounts-command.js')).registerAccounts,
    },
  ],
};
