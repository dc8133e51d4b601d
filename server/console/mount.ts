import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import type { ApprovalNotifier, ApprovalStore } from '../../plugins/policy/index.js';
import type { AuditLog } from '../../plugins/policy/index.js';
import { POLICY_TOKENS, PolicySettings } from '../../plugins/policy/index.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { parseEgressAllow } from '../../core/http/egress-guard.js';
import type { PolicySource } from '../../plugins/policy/index.js';
import { AuthSettings } from '../auth/auth-settings.js';
import type { Authenticator } from '../auth/authenticator.js';
import { isLoopbackHost } from '../transports/origin-check.js';
import { ConsoleAccess } from './access.js';
import { ConsoleSettings } from './console-settings.js';
import { AuditView } from './audit-view.js';
import { consoleRoutes } from './console-routes.js';
import { DecisionHistory } from './decision-history.js';
import { Decisions } from './decisions.js';
import { CheckedSessions } from './session-check.js';
import { SessionStore } from './sessions.js';
import { credentialCheck } from './sign-in/credential-check.js';
import { OidcSignIn } from './sign-in/oidc-sign-in.js';
import { SignInRoutes, type SignInMethod } from './sign-in/sign-in-routes.js';

type Routes = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/**
 * The console's routes for a running server (MCP_CONSOLE=true), ahead of `others` (the admin endpoint).
 * Everything that can be wrong with its settings stops the start here, naming the setting.
 */
export function withConsole(kernel: Kernel, authenticator: Authenticator, logger: Logger, others: Routes | undefined): Routes {
  const settings = kernel.settings;
  if (!kernel.plugins.includes('policy'))
    throw new StartupError('MCP_CONSOLE=true needs the policy plugin (approvals live there); the config file leaves it out.');
  const policy = settings.of(PolicySettings);
  const own = settings.of(ConsoleSettings);
  const method = signInMethod(kernel, authenticator, logger);
  const clock = kernel.resolve<Clock>(TOKENS.Clock);
  const approvals = kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals);
  // The approvals store's own rule of who decides, so the console draws what the store will enforce.
  const access = new ConsoleAccess(approvals.deciders, own.MCP_CONSOLE_VIEWER_GROUPS);
  if (access.approverGroups.length === 0)
    logger.warn('MCP_CONSOLE=true but MCP_APPROVER_GROUPS is empty: the console shows approvals, and nobody can decide there.');
  const sessions = new SessionStore(kernel.resolve<KeyValueStore>(TOKENS.Store), clock, own.MCP_CONSOLE_SESSION_TTL_SECONDS * 1000);
  const audit = policy.MCP_AUDIT_LOG === '' ? undefined : kernel.resolve<AuditLog>(POLICY_TOKENS.AuditLog);
  if (policy.MCP_APPROVAL_WEBHOOK_URL !== '') kernel.resolve<ApprovalNotifier>(POLICY_TOKENS.Notifier).linkTo(consoleLink(settings, logger));
  const routes = consoleRoutes({
    kernel,
    approvals,
    policy: policy.MCP_POLICY_FILE === '' ? undefined : kernel.resolve<PolicySource>(POLICY_TOKENS.PolicySource),
    audit: audit === undefined ? undefined : new AuditView(audit.logPath),
    history: audit === undefined ? undefined : new DecisionHistory(audit.logPath),
    sessions: new CheckedSessions(sessions, credentialCheck(method), clock, own.MCP_CONSOLE_SESSION_RECHECK_SECONDS * 1000, logger),
    access,
    decisions: new Decisions(approvals, access, logger),
    signIn: new SignInRoutes(method, sessions, access, logger),
    publicUrl: own.MCP_CONSOLE_PUBLIC_URL,
    clock,
    logger,
  });
  logger.info({ path: '/console', signIn: method.mode, approverGroups: access.approverGroups }, 'approvals console on');
  return async (request, response) => (await routes(request, response)) || (others !== undefined && (await others(request, response)));
}

/**
 * Where webhook events link to: MCP_CONSOLE_PUBLIC_URL, or the address the server listens on when a browser can
 * reach it as it is (a named or loopback host and a fixed port); otherwise events go without a link.
 */
function consoleLink(settings: Kernel['settings'], logger: Logger): string | undefined {
  const publicUrl = settings.of(ConsoleSettings).MCP_CONSOLE_PUBLIC_URL;
  if (publicUrl !== '') return publicUrl;
  const { MCP_HTTP_HOST: host, MCP_HTTP_PORT: port } = settings.of(CoreSettings);
  if (port !== 0 && host !== '0.0.0.0' && host !== '::' && host !== '') return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.warn('Approval webhook events carry no console link: set MCP_CONSOLE_PUBLIC_URL to the address approvers open the console at.');
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
