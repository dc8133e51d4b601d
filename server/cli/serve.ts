import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import type { ApprovalStore } from '../../plugins/policy/approvals/approval-store.js';
import { POLICY_TOKENS } from '../../plugins/policy/policy-settings.js';
import type { Authenticator } from '../auth/authenticator.js';
import { startKernel } from '../bootstrap/start-kernel.js';
import type { HttpOptions, RunningHttp } from '../transports/http.js';
import { serveStdio } from '../transports/stdio.js';
import { whenOutputCloses } from './closed-output.js';
import { invocationFrom, type ConfigOptions } from './invocation.js';

export interface ServeOptions extends ConfigOptions {
  transport?: string;
  port?: string;
  host?: string;
}

/** Starts the kernel and serves it over the transport the settings name, until stdin ends or a signal comes. */
export async function serve(options: ServeOptions): Promise<void> {
  const flags: Record<string, string> = {};
  if (options.transport) flags.MCP_TRANSPORT = options.transport;
  if (options.port) flags.MCP_HTTP_PORT = options.port;
  if (options.host) flags.MCP_HTTP_HOST = options.host;
  const { kernel, logger, settings } = await startKernel(invocationFrom(options, flags));
  let stop: () => Promise<void>;
  if (settings.get('MCP_TRANSPORT') === 'http') {
    let http: RunningHttp;
    let authenticator: Authenticator | undefined;
    try {
      // Loaded only here: the HTTP stack and the authenticators (the SDK's Streamable HTTP entry, JWT
      // verification) are a large part of start-up that a stdio server never uses.
      const [{ serveHttp }, { openHttpAuth }] = await Promise.all([import('../transports/http.js'), import('./http-auth.js')]);
      http = await serveHttp(kernel, {
        host: settings.get('MCP_HTTP_HOST'),
        port: settings.get('MCP_HTTP_PORT'),
        allowedOrigins: settings.get<string>('MCP_HTTP_ALLOWED_ORIGINS').split(',').map((s) => s.trim()).filter(Boolean),
        publicUrl: settings.get<string>('MCP_PUBLIC_URL'),
        auth: {
          mode: settings.get<string>('MCP_AUTH_MODE'),
          open: async (endpoint) => {
            const opened = await openHttpAuth(settings, logger, endpoint);
            authenticator = opened.authenticator;
            return opened;
          },
        },
        routes: await adminRoutes(kernel, settings.get<string>('MCP_ADMIN_TOKEN'), logger),
        logger,
      });
    } catch (error) {
      await authenticator?.close?.();
      await kernel.close();
      throw error;
    }
    // Tests and scripts read the bound port from this line when they asked for port 0.
    process.stderr.write(`mcp-devtools listening on ${http.url}\n`);
    stop = async () => {
      await http.close();
      await authenticator?.close?.();
    };
  } else {
    if (settings.get('MCP_AUTH_MODE') !== 'off') logger.warn('MCP_AUTH_MODE applies to Streamable HTTP only; over stdio the caller is the local user.');
    // The transport sees stdout close and ends the connection; the server then shuts down as for stdin's end.
    whenOutputCloses(() => {});
    const stdio = serveStdio(kernel, logger);
    void stdio.closed.then(() => shutdown(kernel, logger, () => stdio.close(), 'the client closed stdin or stdout'));
    stop = () => stdio.close();
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(kernel, logger, stop, signal));
}

/** The admin endpoint, when the policy plugin runs (a config file may disable it). */
async function adminRoutes(kernel: Kernel, adminToken: string, logger: Logger): Promise<HttpOptions['routes']> {
  if (!kernel.plugins.includes('policy')) return undefined;
  const { approvalRoutes } = await import('../admin/approval-routes.js');
  return approvalRoutes(kernel.resolve<ApprovalStore>(POLICY_TOKENS.Approvals), adminToken, logger);
}

let shuttingDown = false;

/** Stops taking requests, lets in-flight calls finish within the grace period, closes plugins and stores. */
async function shutdown(kernel: Kernel, logger: Logger, stopTransport: () => Promise<void>, why: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ why }, 'shutting down');
  const transportStopped = stopTransport().catch(() => {});
  await kernel.close(kernel.settings.get<number>('MCP_SHUTDOWN_GRACE_MS'));
  await Promise.race([transportStopped, new Promise((r) => setTimeout(r, 1000))]);
  process.exit(0);
}
