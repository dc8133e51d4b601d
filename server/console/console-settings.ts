import Type from 'typebox';
import { secret } from '../../core/config/setting-kinds.js';

/** Settings of the approvals console (served by the HTTP transport at /console). Registered in server-settings.ts. */
export const ConsoleSettings = Type.Object({
  MCP_CONSOLE: Type.Boolean({
    default: false,
    description: 'Serve the approvals console at /console (Streamable HTTP only; needs MCP_AUTH_MODE tokens or oidc).',
  }),
  MCP_CONSOLE_VIEWER_GROUPS: Type.String({
    default: '',
    description: 'Comma-separated groups whose members may sign in to read the console (approvers always may). Empty: every authenticated principal.',
  }),
  MCP_CONSOLE_PUBLIC_URL: Type.String({
    default: '',
    description:
      "The console's address as browsers reach it (https://mcp.acme.com); the OIDC redirect URI is <this>/console/callback. https also marks cookies Secure. Empty: taken from each request (token sign-in only; OIDC needs it).",
  }),
  MCP_CONSOLE_OIDC_CLIENT_ID: Type.String({ default: '', description: 'OIDC client of the console (authorization code flow with PKCE, MCP_AUTH_MODE=oidc).' }),
  MCP_CONSOLE_OIDC_CLIENT_SECRET: secret(Type.String({ default: '', description: 'Secret of that client; empty for a public client (PKCE only).' })),
  MCP_CONSOLE_OIDC_SCOPES: Type.String({
    default: 'openid profile',
    description: 'Scopes the console asks for; the ID token must carry MCP_OIDC_SUBJECT_CLAIM and MCP_OIDC_GROUPS_CLAIM.',
  }),
  MCP_CONSOLE_SESSION_TTL_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 604800,
    default: 28800,
    description: 'How long a console sign-in lasts (kept in MCP_STORE_URL, so every replica honours it).',
  }),
  MCP_CONSOLE_SESSION_RECHECK_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 60,
    default: 60,
    description:
      "How old a console session's last check of its token (tokens file, or the OIDC provider) and groups may be; a revoked token or a changed group ends the session within it.",
  }),
});
