import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Logger } from '../../core/logging/logger.js';
import type { Exposition, PrometheusMetrics } from './prometheus-metrics.js';

/** A worker's request for the whole server's metrics, and the primary's answer to it (over the cluster's IPC). */
interface MetricsMessage {
  mcpDevtools: 'metrics';
  id: number;
  body?: string;
  error?: string;
}

/** Above prom-client's own 5 s for gathering every worker's registry, so its error is the one reported. */
const ANSWER_TIMEOUT_MS = 8000;

/**
 * In the primary of `--workers N`: answers a worker's scrape with the metrics of every worker, gathered and
 * summed by prom-client's cluster aggregation (AggregatorRegistry: counters and histograms summed, gauges as
 * each declares). So one scrape answers for the whole server, whichever worker takes it, and a counter never
 * reads 1, 2, 1, 2 (which Prometheus would take for resets). A replaced worker's counts leave the sum with it:
 * Prometheus sees that as one counter reset, which rate() and increase() allow for.
 */
export function aggregateWorkerMetrics(logger: Logger): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<MetricsMessage>) => {
    if (message?.mcpDevtools !== 'metrics' || typeof message.id !== 'number' || message.body !== undefined) return;
    const id = message.id;
    const answer = (reply: MetricsMessage): void => {
      if (worker.isConnected()) worker.send(reply);
    };
    aggregator.clusterMetrics().then(
      (body) => answer({ mcpDevtools: 'metrics', id, body }),
      (error: unknown) => {
        logger.warn({ err: (error as Error).message }, "the workers' metrics could not be gathered for a scrape");
        answer({ mcpDevtools: 'metrics', id, error: (error as Error).message });
      },
    );
  });
}

/**
 * In a worker: hands this worker's registry to prom-client's cluster listener (which answers the primary's
 * requests for it), and makes every scrape this worker takes ask the primary for the whole server's figures.
 */
export function joinClusterMetrics(metrics: PrometheusMetrics): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one adds prom-client's listener for the primary's requests; this worker uses it for nothing else.
  new AggregatorRegistry();
  const pending = new Map<number, (message: MetricsMessage) => void>();
  let next = 0;
  process.on('message', (message: Partial<MetricsMessage>) => {
    if (message?.mcpDevtools === 'metrics' && typeof message.id === 'number') pending.get(message.id)?.(message as MetricsMessage);
  });
  const contentType = metrics.registry.contentType;
  metrics.answerWith(
    () =>
      new Promise<Exposition>((resolve, reject) => {
        const id = next++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the primary process did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`));
        }, ANSWER_TIMEOUT_MS);
        pending.set(id, (message) => {
          clearTimeout(timer);
          pending.delete(id);
          if (message.body !== undefined) resolve({ contentType, body: message.body });
          else reject(new Error(message.error ?? 'no answer'));
        });
        const ask: MetricsMessage = { mcpDevtools: 'metrics', id };
        process.send!(ask);
      }),
  );
}
