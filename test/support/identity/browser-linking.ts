import type { LoopbackOAuthServer } from './oauth-server.js';
import { ATLASSIAN_APP, atlassianServer } from './vendor-servers.js';
import { startActingServer, type ActingServer } from './acting-server.js';
import { freePort } from '../free-port.js';

/** What scrapes the server's /metrics. */
export const METRICS_TOKEN = 'metrics-scrape-browser-linking-6e0a';

/** A built server (Jira, JIRA_CREDENTIALS=user, console on) whose public URL is where browsers reach it, and Atlassian's 3LO server sending them back there. */
export interface BrowserLinking {
  acting: ActingServer;
  atlassian: LoopbackOAuthServer;
  /** http://127.0.0.1:<port>: the console, and the callback `<base>/identity/callback/atlassian`. */
  base: string;
  close(): Promise<void>;
}

export async function startBrowserLinking(people: Record<string, string>): Promise<BrowserLinking> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // On `localhost`, the console on `127.0.0.1`: another site, so the way back is a cross-site redirect.
  const atlassian = await atlassianServer(3600, undefined, `${base}/identity/callback`);
  const acting = await startActingServer(
    people,
    ['jira'],
    {
      MCP_CONSOLE_PUBLIC_URL: base,
      MCP_METRICS_TOKEN: METRICS_TOKEN,
      ATLASSIAN_SITE_NAME: 'acme',
      ATLASSIAN_USER_EMAIL: 'jira-bot@acme.example',
      ATLASSIAN_API_TOKEN: 'ATATT-service-token-of-jira-bot-51cb',
      JIRA_CREDENTIALS: 'user',
      ATLASSIAN_OAUTH_CLIENT_ID: ATLASSIAN_APP.id,
      ATLASSIAN_OAUTH_CLIENT_SECRET: ATLASSIAN_APP.secret,
      ATLASSIAN_OAUTH_SCOPES: 'read:jira-work write:jira-work read:me',
      ATLASSIAN_OAUTH_AUTH_URL: atlassian.url,
      ATLASSIAN_API_GATEWAY_URL: atlassian.url,
    },
    ['--port', String(port)],
  );
  return {
    acting,
    atlassian,
    base,
    close: async () => {
      await acting.close();
      await atlassian.close();
    },
  };
}
