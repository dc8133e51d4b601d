import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { ConsoleContribution } from '../../core/plugin/contributions.js';
import { readPluginSpec, type PluginClass } from '../../core/plugin/metadata.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { parseEgressAllow } from '../../core/http/egress-guard.js';
import { AuthSettings } from '../auth/auth-settings.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { HostCheck } from '../http/host-check.js';
import { isLoopbackHost } from '../http/origin-check.js';
import { ConsoleAccess } from './access.js';
import { ConsoleSettings } from './console-settings.js';
import { consoleRoutes, type MountedPage } from './console-routes.js';
import { CheckedSessions } from './session-check.js';
import { SessionStore } from './sessions.js';
import { credentialCheck } from './sign-in/credential-check.js';
import { OidcSignIn } from './sign-in/oidc-sign-in.js';
import { SignInRoutes, type SignInMethod } from './sign-in/sign-in-routes.js';

type Routes = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** Paths of the frame itself, which no page may take. */
const FRAME_PATHS = ['signin', 'callback', 'signout', 'assets'];
const PAGE_PATH = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The console for a running server (MCP_CONSOLE=true), ahead of `others` (the plugins' routes, /metrics): the
 * frame (sign-in, sessions, CSRF, layout) with the pages the plugins contribute, each plugin's loaded now.
 * Everything that can be wrong with its settings or its pages stops the start here, naming the setting or plugin.
 */
export async function withConsole(
  kernel: Kernel,
  plugins: readonly PluginClass[],
  authenticator: Authenticator,
  hostCheck: HostCheck,
  logger: Logger,
  others: Routes | undefined,
): Promise<Routes> {
  const settings = kernel.settings;
  const declared = declaredPages(plugins);
  if (declared.length === 0)
    throw new StartupError(
      "MCP_CONSOLE=true, but no plugin this server runs contributes a console page (the approvals pages are the policy plugin's): load one, or leave the console off.",
    );
  const own = settings.of(ConsoleSettings);
  const method = signInMethod(kernel, authenticator, logger);
  const clock = kernel.resolve<Clock>(TOKENS.Clock);
  const url = consoleLink(settings);
  const mounted: MountedPage[] = [];
  for (const { plugin, contribution } of declared) {
    const pages = await (await contribution.load())({ kernel, logger: logger.child({ plugin }), clock, url });
    for (const spec of contribution.pages) mounted.push({ plugin, path: spec.path, label: spec.label, home: spec.home ?? false, pages });
  }
  const access = new ConsoleAccess(
    own.MCP_CONSOLE_VIEWER_GROUPS,
    [...new Set(mounted.map((m) => m.pages))].flatMap((p) => (p.roleOf === undefined ? [] : [(person) => p.roleOf!(person)])),
  );
  const sessions = new SessionStore(kernel.resolve<KeyValueStore>(TOKENS.Store), clock, own.MCP_CONSOLE_SESSION_TTL_SECONDS * 1000);
  const routes = consoleRoutes({
    mounted,
    sessions: new CheckedSessions(sessions, credentialCheck(method), clock, own.MCP_CONSOLE_SESSION_RECHECK_SECONDS * 1000, logger),
    access,
    signIn: new SignInRoutes(method, sessions, access, logger),
    publicUrl: own.MCP_CONSOLE_PUBLIC_URL,
    hostCheck,
    logger,
  });
  logger.info({ path: '/console', signIn: method.mode, pages: mounted.map((m) => `${m.plugin}:${m.path}`) }, 'console on');
  return async (request, response) => (await routes(request, response)) || (others !== undefined && (await others(request, response)));
}

/** The console pages the plugins contribute: each path a word the frame does not use and no other page has; one home page at most. */
export function declaredPages(plugins: readonly PluginClass[]): Array<{ plugin: string; contribution: ConsoleContribution }> {
  const found: Array<{ plugin: string; contribution: ConsoleContribution }> = [];
  const taken = new Map<string, string>();
  let home: string | undefined;
  for (const cls of plugins) {
    const spec = readPluginSpec(cls);
    const contribution = spec?.contributes?.console;
    if (spec === undefined || contribution === undefined) continue;
    for (const page of contribution.pages) {
      const where = `Plugin "${spec.name}" contributes the console page ${JSON.stringify(page.path)}`;
      if (!PAGE_PATH.test(page.path) || FRAME_PATHS.includes(page.path))
        throw new StartupError(`${where}: a page's path is a lower-case word under /console, not one of ${FRAME_PATHS.join(', ')}.`);
      const other = taken.get(page.path);
      if (other !== undefined) throw new StartupError(`${where}, which plugin "${other}" contributes too: one of them must move.`);
      taken.set(page.path, spec.name);
      if (page.home === true && home !== undefined)
        throw new StartupError(`${where} as the console's first page, and plugin "${home}" one too: one page may be at /console.`);
      if (page.home === true) home = spec.name;
    }
    found.push({ plugin: spec.name, contribution });
  }
  return found;
}

/**
 * Where browsers reach the console, for links to it (an approval webhook event's): MCP_CONSOLE_PUBLIC_URL, or the
 * address the server listens on when a browser can reach it as it is (a named or loopback host and a fixed port).
 */
function consoleLink(settings: Kernel['settings']): string | undefined {
  const publicUrl = settings.of(ConsoleSettings).MCP_CONSOLE_PUBLIC_URL;
  if (publicUrl !== '') return publicUrl;
  const { MCP_HTTP_HOST: host, MCP_HTTP_PORT: port } = settings.of(CoreSettings);
  if (port !== 0 && host !== '0.0.0.0' && host !== '::' && host !== '') return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return undefined;
}

function signInMethod(kernel: Kernel, authenticator: Authenticator, logger: Logger): SignInMethod {
  const settings = kernel.settings;
  const auth = settings.of(AuthSettings);
  const own = settings.of(ConsoleSettings);
  const mode = auth.MCP_AUTH_MODE;
  const publicUrl = own.MCP_CONSOLE_PUBLIC_URL;
  if (publicUrl !== '') checkPublicUrl(publicUrl);
  if (mode === 'tokens') return { mode: 'tokens', authenticator };
  if (mode !== 'oidc')
    throw new StartupError(
      'MCP_CONSOLE=true needs MCP_AUTH_MODE=tokens or oidc: approvers sign in as themselves, and with authentication off everyone is "local".',
    );
  const clientId = own.MCP_CONSOLE_OIDC_CLIENT_ID;
  if (clientId === '')
    throw new StartupError("MCP_CONSOLE=true with MCP_AUTH_MODE=oidc needs MCP_CONSOLE_OIDC_CLIENT_ID: the console's client at the identity provider.");
  if (publicUrl === '')
    throw new StartupError(
      'MCP_CONSOLE=true with MCP_AUTH_MODE=oidc needs MCP_CONSOLE_PUBLIC_URL (such as https://mcp.acme.com): the provider redirects to <it>/console/callback, which must be registered with the client.',
    );
  const issuer = auth.MCP_OIDC_ISSUER;
  const oidc = new OidcSignIn(
    {
      issuer,
      clientId,
      clientSecret: own.MCP_CONSOLE_OIDC_CLIENT_SECRET,
      scopes: own.MCP_CONSOLE_OIDC_SCOPES,
      subjectClaim: auth.MCP_OIDC_SUBJECT_CLAIM,
      groupsClaim: auth.MCP_OIDC_GROUPS_CLAIM,
      clockSkewSeconds: auth.MCP_OIDC_CLOCK_SKEW_SECONDS,
      maxLifetimeSeconds: auth.MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS,
      egressAllow: parseEgressAllow(settings.of(CoreSettings).MCP_EGRESS_ALLOW),
    },
    logger,
  );
  return { mode: 'oidc', oidc, provider: new URL(issuer).host };
}

function checkPublicUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StartupError(`MCP_CONSOLE_PUBLIC_URL=${JSON.stringify(value)} is not a URL; give the console's address, such as https://mcp.acme.com.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new StartupError(`MCP_CONSOLE_PUBLIC_URL=${value} must be https:// (plain http only on this machine): session cookies must not travel in clear.`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new StartupError(`MCP_CONSOLE_PUBLIC_URL=${value} must be an origin only (scheme, host, port): the console is always at /console.`);
  }
}
