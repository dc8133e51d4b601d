import { inject } from 'tsyringe';
import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import type { UpstreamInterceptor } from '../../core/plugin/tool-context.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { HttpCache } from './http-cache.js';

const CacheSettings = Type.Object({
  HTTP_CACHE_ENABLED: Type.Boolean({ default: true, description: 'Serve repeated upstream GETs of cacheable tools (circleci_get) from the shared store.' }),
  HTTP_CACHE_DEFAULT_TTL_SECONDS: Type.Integer({ minimum: 0, default: 60, description: 'How long a response without Cache-Control max-age stays fresh.' }),
  HTTP_CACHE_MAX_TTL_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: "Upper bound on any response's freshness, whatever its Cache-Control says.",
  }),
  HTTP_CACHE_MAX_BYTES: Type.Integer({ minimum: 1, default: 1048576, description: 'Responses with a larger body are not cached.' }),
});

/**
 * The HTTP cache as an upstream interceptor on the shared KeyValueStore (memory, SQLite or Redis), for tools
 * that declare `cache: true`. It sits behind policy, so a hit never gets around a rule.
 */
@Plugin({ name: 'cache', version: '1.0.0', settings: CacheSettings })
export class CachePlugin implements DevtoolsPlugin {
  private readonly cache: HttpCache | undefined;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Store) store: KeyValueStore,
    @inject(TOKENS.Clock) clock: Clock,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(TOKENS.Metrics) metrics: Metrics,
  ) {
    const own = settings.of(CacheSettings);
    if (!own.HTTP_CACHE_ENABLED) return;
    this.cache = new HttpCache({
      store,
      clock,
      logger,
      limits: {
        defaultTtlMs: own.HTTP_CACHE_DEFAULT_TTL_SECONDS * 1000,
        maxTtlMs: own.HTTP_CACHE_MAX_TTL_SECONDS * 1000,
      },
      maxBytes: own.HTTP_CACHE_MAX_BYTES,
      metrics,
    });
  }

  interceptors(): UpstreamInterceptor[] {
    return this.cache === undefined ? [] : [this.cache];
  }
}
