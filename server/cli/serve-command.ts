import type { Command } from 'commander';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { startKernel } from '../bootstrap/start-kernel.js';
import { loggedAuthenticator } from '../auth/auth-failure-log.js';
import type { Authenticator } from '../auth/authenticator.js';
import { exposedMetrics, startMetrics } from '../metrics/exposed-metrics.js';
import type { RunningHttp } from '../transports/http.js';
import { serveStdio } from '../transports/stdio.js';
import { invocationFrom, toolFlags, withConfigOptions, withToolOptions, type ConfigOptions, type ToolOptions } from './common-options.js';
import { reportStartupFailure } from './startup-failure.js';
import { unknownCommand } from './unknown-command.js';
import { reportListeningToPrimary, serveThroughWorkers } from './workers.js';

interface ServeOptions extends ConfigOptions, ToolOptions {
  transport?: string;
  port?: string;
  host?: string;
  workers?: string;
}

export function registerServe(program: Command): void {
  const serve = program
    .command('serve', { isDefault: true })
    .description('serve MCP over stdio (default) or Streamable HTTP')
    .option('--transport <stdio|http>', 'transport (MCP_TRANSPORT)')
    .option('--port <n>', 'HTTP port (MCP_HTTP_PORT)')
    .option('--host <address>', 'HTTP bind address (MCP_HTTP_HOST, default 127.0.0.1)')
    .option('--workers <n|auto>', 'HTTP worker processes sharing the port, auto = one per core (MCP_WORKERS)')
    // A word that is not a command lands here, as the default command's argument: answered as what it is.
    .allowExcessArguments();
  withConfigOptions(withToolOptions(serve)).action(async (options: ServeOptions, command: Command) => {
    if (command.args.length > 0) throw unknownCommand(command.args[0]!, program);
    await startServing(options).catch(reportStartupFailure);
  });
}

/** Starts the kernel, the metrics and the transport, and stops them all on a signal or when stdin closes. */
async function startServing(options: ServeOptions): Promise<void> {
  const flags: Record<string, string> = toolFlags(options);
  if (options.transport) flags.MCP_TRANSPORT = options.transport;
  if (options.port) flags.MCP_HTTP_PORT = options.port;
  if (options.host) flags.MCP_HTTP_HOST = options.host;
  if (options.workers) flags.MCP_WORKERS = options.workers;
  if (await serveThroughWorkers(invocationFrom(options, flags))) return;
  const { kernel, logger, settings, metrics } = await startKernel({ ...invocationFrom(options, flags), metrics: exposedMetrics });
  let stopMetrics: () => Promise<void>;
  try {
    stopMetrics = await startMetrics(kernel, settings, metrics, logger);
  } catch (error) {
    await kernel.close();
    throw error;
  }
  let stop: () => Promise<void>;
  if (settings.get('MCP_TRANSPORT') === 'http') {
    let http: RunningHttp;
    let authenticator: Authenticator | undefined;
    try {
      // Loaded only here: the HTTP stack and the authenticators (the SDK's Streamable HTTP transport, JWT
      // verification) are a large part of start-up that a stdio server never uses.
      const [{ serveHttp }, { createAuthenticator }, { httpRoutes }] = await Promise.all([import('../transports/http.js'), import('../auth/create-authenticator.js'), import('./http-routes.js')]);
      authenticator = loggedAuthenticator(await createAuthenticator(settings, logger), logger);
      http = await serveHttp(kernel, {
        host: settings.get('MCP_HTTP_HOST'),
        port: settings.get('MCP_HTTP_PORT'),
        allowedOrigins: settings.get<string>('MCP_HTTP_ALLOWED_ORIGINS').split(',').map((s) => s.trim()).filter(Boolean),
        authenticator,
        routes: await httpRoutes(kernel, settings, authenticator, metrics, logger),
        logger,
      });
    } catch (error) {
      await authenticator?.close?.();
      await stopMetrics();
      await kernel.close();
      throw error;
    }
    // Tests and scripts read the bound port from this line when they asked for port 0: written whatever
    // LOG_LEVEL says, as JSON like every other line.
    if (!reportListeningToPrimary(http.url)) logger.child({}, { level: 'info' }).info({ url: http.url }, `listening on ${http.url}`);
    stop = async () => {
      await Promise.all([http.close(), stopMetrics()]);
      await authenticator?.close?.();
    };
  } else {
    if (settings.get('MCP_AUTH_MODE') !== 'off') logger.warn('MCP_AUTH_MODE applies to Streamable HTTP only; over stdio the caller is the local user.');
    if (settings.get('MCP_CONSOLE')) logger.warn('MCP_CONSOLE applies to Streamable HTTP only: the console is served beside /mcp.');
    const stdio = await serveStdio(kernel);
    stop = async () => {
      await Promise.all([stdio.close(), stopMetrics()]);
    };
    void stdio.closed.then(() => shutdown(kernel, logger, stop, 'stdin closed'));
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(kernel, logger, stop, signal));
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
