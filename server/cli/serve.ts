import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { loggedAuthenticator } from '../auth/auth-failure-log.js';
import { countedAuthenticator } from '../metrics/counted-authenticator.js';
import type { Authenticator } from '../auth/authenticator.js';
import { resolveConfig } from '../bootstrap/resolve-config.js';
import { startKernel } from '../bootstrap/start-kernel.js';
import { exposedMetrics, startMetrics } from '../metrics/exposed-metrics.js';
import type { Route } from '../http/route.js';
import type { RunningHttp } from '../transports/http.js';
import { serveStdio } from '../transports/stdio.js';
import { whenOutputCloses } from './closed-output.js';
import { invocationFrom, toolFlags, type ConfigOptions, type ToolOptions } from './invocation.js';
import { logDestination } from './log-output.js';
import { startedAtTerminal, stdioBanner } from './stdio-banner.js';
import { reportStartupFailure } from './startup-failure.js';
import { AuthSettings } from '../auth/auth-settings.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { parseEgressAllow } from '../../core/http/egress-guard.js';
import { PublicEndpointSettings } from '../auth/public-endpoint.js';
import { workerCount } from './worker-count.js';
import { endOfLifeNotice } from './runtime-support.js';
import { startTracingIfWanted } from '../tracing/tracing-wanted.js';
import { closeTasks } from '../mcp/tasks/task-runner.js';
import type { RunningTracing } from '../tracing/start-tracing.js';

export interface ServeOptions extends ConfigOptions, ToolOptions {
  transport?: string;
  port?: string;
  host?: string;
  workers?: string;
}

/**
 * Starts the kernel, the metrics and the transport the settings name, until stdin ends or a signal comes. A
 * failure to start is said in one sentence on stderr (startup-failure.ts).
 */
export async function serve(options: ServeOptions): Promise<void> {
  await startServing(options).catch(reportStartupFailure);
}

async function startServing(options: ServeOptions): Promise<void> {
  const flags: Record<string, string> = toolFlags(options);
  if (options.transport) flags.MCP_TRANSPORT = options.transport;
  if (options.port) flags.MCP_HTTP_PORT = options.port;
  if (options.host) flags.MCP_HTTP_HOST = options.host;
  if (options.workers) flags.MCP_WORKERS = options.workers;
  const invocation = invocationFrom(options, flags);
  // Resolved once: the same configuration decides on workers and starts this process's server.
  const resolved = await resolveConfig(invocation);
  // A worker process sees the same MCP_WORKERS as its primary, so it loads the cluster code too.
  const workers = workerCount(resolved.settings.of(CoreSettings).MCP_WORKERS);
  const cluster = workers > 1 ? await import('./workers.js') : undefined;
  if (cluster?.serveThroughWorkers(workers, resolved.settings)) return;
  // A worker writes its own audit chain, names itself in its log lines, and answers scrapes for every worker.
  const worker = cluster?.thisWorker();
  const { kernel, logger, settings, metrics, plugins } = await startKernel({
    ...invocation,
    resolved: worker === undefined ? resolved : { ...resolved, settings: worker.settings(resolved.settings) },
    metrics: (s) => exposedMetrics(s, worker !== undefined),
    logFields: worker?.logFields,
    logDestination: logDestination(resolved.settings),
  });
  const notice = endOfLifeNotice();
  if (notice !== undefined) logger.warn({ node: process.versions.node }, notice);
  let stopMetrics: () => Promise<void>;
  let tracing: RunningTracing | undefined;
  try {
    // OpenTelemetry's SDK only when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER asks for traces.
    tracing = await startTracingIfWanted(invocation.env, logger, parseEgressAllow(settings.of(CoreSettings).MCP_EGRESS_ALLOW));
    stopMetrics = await startMetrics(kernel, settings, metrics, logger);
  } catch (error) {
    await kernel.close();
    await tracing?.shutdown();
    throw error;
  }
  const flushTraces = async (): Promise<void> => tracing?.shutdown();
  let stop: () => Promise<void>;
  if (settings.get('MCP_TRANSPORT') === 'http') {
    let http: RunningHttp;
    let authenticator: Authenticator | undefined;
    // The console, admin, metrics and artifact routes need the authenticator, which opens once the server
    // listens (its public endpoint is the OIDC audience); requests wait until then, so the routes are set.
    let routes: Route | undefined;
    try {
      // Loaded only here: the HTTP stack and the authenticators (the SDK's Streamable HTTP entry, JWT
      // verification) are a large part of start-up that a stdio server never uses.
      const [{ serveHttp }, { openHttpAuth }, { httpRoutes }, { HostCheck }, { separateCredentials }] = await Promise.all([
        import('../transports/http.js'),
        import('./http-auth.js'),
        import('../routes/http-routes.js'),
        import('../http/host-check.js'),
        import('../routes/separate-credentials.js'),
      ]);
      http = await serveHttp(kernel, {
        host: settings.get('MCP_HTTP_HOST'),
        port: settings.get('MCP_HTTP_PORT'),
        allowedOrigins: settings
          .get<string>('MCP_HTTP_ALLOWED_ORIGINS')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        publicUrl: settings.of(PublicEndpointSettings).MCP_PUBLIC_URL,
        hostCheck: HostCheck.of(settings, settings.get('MCP_HTTP_HOST')),
        auth: {
          mode: settings.of(AuthSettings).MCP_AUTH_MODE,
          open: async (endpoint) => {
            const opened = await openHttpAuth(settings, logger, endpoint);
            // The scrape and admin tokens are no person's: refused at start-up if the tokens file says otherwise, and after.
            const separate = await separateCredentials(settings, opened.authenticator, logger, metrics !== undefined);
            authenticator = countedAuthenticator(loggedAuthenticator(separate.authenticator, logger), metrics);
            routes = await httpRoutes(kernel, plugins, authenticator, metrics, logger, separate.scrape);
            return { ...opened, authenticator };
          },
        },
        routes: async (request, response) => (routes === undefined ? false : routes(request, response)),
        requests: metrics,
        logger,
      });
    } catch (error) {
      await authenticator?.close?.();
      await stopMetrics();
      await kernel.close();
      await flushTraces();
      throw error;
    }
    // Tests and scripts read the bound port from this line when they asked for port 0: written whatever
    // LOG_LEVEL says, as JSON like every other line.
    if (!cluster?.reportListeningToPrimary(http.url)) logger.child({}, { level: 'info' }).info({ url: http.url }, `listening on ${http.url}`);
    stop = async () => {
      await Promise.all([http.close(), stopMetrics()]);
      await authenticator?.close?.();
    };
  } else {
    if (settings.get('MCP_AUTH_MODE') !== 'off') logger.warn('MCP_AUTH_MODE applies to Streamable HTTP only; over stdio the caller is the local user.');
    if (settings.get('MCP_CONSOLE')) logger.warn('MCP_CONSOLE applies to Streamable HTTP only: the console is served beside /mcp.');
    // The transport sees stdout close and ends the connection; the server then shuts down as for stdin's end.
    whenOutputCloses(() => {});
    const stdio = serveStdio(kernel, logger);
    if (startedAtTerminal()) process.stderr.write(stdioBanner(kernel));
    stop = async () => {
      await Promise.all([stdio.close(), stopMetrics()]);
    };
    void stdio.closed.then(() => shutdown(kernel, logger, stop, 'the client closed stdin or stdout', flushTraces));
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown(kernel, logger, stop, signal, flushTraces));
}

let shuttingDown = false;

/** Stops taking requests, lets in-flight calls finish within the grace period, closes plugins and stores. */
async function shutdown(kernel: Kernel, logger: Logger, stopTransport: () => Promise<void>, why: string, flushTraces: () => Promise<void>): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ why }, 'shutting down');
  const transportStopped = stopTransport().catch(() => {});
  // Tasks (detached ci_wait calls) are stopped at once, not given the grace: their clients learn they failed.
  await closeTasks(kernel);
  await kernel.close(kernel.settings.of(CoreSettings).MCP_SHUTDOWN_GRACE_MS);
  // The spans of the calls that just finished, sent before the process ends (a collector that is gone gets 2 s).
  await Promise.race([flushTraces().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
  await Promise.race([transportStopped, new Promise((r) => setTimeout(r, 1000))]);
  process.exit(0);
}
