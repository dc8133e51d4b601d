import { Kernel } from '../../core/kernel/kernel.js';
import { createArtifactStore } from '../../plugins/artifacts/index.js';
import { createLogger, type Logger } from '../../core/logging/logger.js';
import type { Settings } from '../../core/config/settings.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { openStore } from '../../core/store/open-store.js';
import { isBuiltinPlugin } from './builtin-plugins.js';
import { resolveConfig, type Invocation, type ResolvedConfig } from './resolve-config.js';

export interface StartOptions<M extends Metrics = Metrics> extends Invocation {
  /** Where log lines go (stderr by default). */
  logDestination?: { write(line: string): unknown };
  /** Fields every log line carries besides pid and hostname (a `--workers` worker's number). */
  logFields?: Readonly<Record<string, string | number>>;
  clock?: Clock;
  /** The metrics to record into, decided from the settings (nothing is counted without). */
  metrics?: (settings: Settings) => Promise<M | undefined>;
  /** The configuration already resolved from these options (serve resolves it first, to decide on workers). */
  resolved?: ResolvedConfig;
}

export interface Started<M extends Metrics = Metrics> extends ResolvedConfig {
  kernel: Kernel;
  logger: Logger;
  metrics?: M;
}

/**
 * The store MCP_STORE_URL names, in MCP_STORE_NAMESPACE, with MCP_STORE_TIMEOUT_MS: the server and every
 * command that reaches its state (approvals) open it alike, or they would look in different namespaces.
 */
export function openConfiguredStore(settings: Settings): Promise<KeyValueStore> {
  return openStore(settings.get('MCP_STORE_URL'), {
    namespace: settings.get('MCP_STORE_NAMESPACE'),
    timeoutMs: settings.get('MCP_STORE_TIMEOUT_MS'),
  });
}

/** Resolves the configuration, opens the store and boots the kernel: everything but a transport. */
export async function startKernel<M extends Metrics = Metrics>(options: StartOptions<M>): Promise<Started<M>> {
  const resolved = options.resolved ?? (await resolveConfig(options));
  const { settings } = resolved;
  const logger = createLogger({
    level: settings.get('LOG_LEVEL'),
    secrets: settings.secretValues(),
    destination: options.logDestination,
    fields: options.logFields,
  });
  for (const warning of resolved.warnings) logger.warn(warning);
  const store = await openConfiguredStore(settings);
  const prevalidated = new Set(resolved.plugins.filter(isBuiltinPlugin));
  const metrics = await options.metrics?.(settings);
  const kernel = await Kernel.start({
    plugins: resolved.plugins,
    settings,
    logger,
    store,
    clock: options.clock,
    prevalidated,
    metrics,
    artifactStore: createArtifactStore,
  });
  return { ...resolved, kernel, logger, metrics };
}
