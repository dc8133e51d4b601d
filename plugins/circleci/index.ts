import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { CacheInfo } from '../../core/http/types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { CircleciSettings, createCircleciClient } from './circleci-client.js';
import { DELETE, GET, POST } from './tool-specs.js';

/**
 * CircleCI v2: a cached read passthrough (`{data, cache}`) and write passthroughs (text only, never cached,
 * never retried). Handlers send `ctx.route`, which the validate stage computed from the arguments: what
 * policy decided on is exactly what goes out.
 */
@Plugin({ name: 'circleci', version: '1.0.0', settings: CircleciSettings })
export class CircleciPlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {
    this.upstream = createCircleciClient(settings);
  }

  @Tool(GET)
  async get(ctx: ToolContext): Promise<ToolOutput> {
    const response = await this.upstream.send(ctx, ctx.route!);
    // Without the cache plugin (disabled, or HTTP_CACHE_ENABLED=false) every answer is a fresh fetch.
    const cache: CacheInfo = response.cache ?? { hit: false, ageMs: 0, fetchedAt: new Date(this.clock.now()).toISOString() };
    return { value: response.body, meta: { cache } };
  }

  @Tool(POST)
  async post(ctx: ToolContext): Promise<ToolOutput> {
    return this.write(ctx);
  }

  @Tool(DELETE)
  async delete(ctx: ToolContext): Promise<ToolOutput> {
    return this.write(ctx);
  }

  /**
   * A write that went through must never look failed (the model would send it again): a 2xx body that is
   * empty or not JSON is shown as it is rather than turned into an error.
   */
  private async write(ctx: ToolContext): Promise<ToolOutput> {
    const route = ctx.route!;
    const response = await this.upstream.send(ctx, route, { expect: 'lenient' });
    if (response.kind === 'empty') return { text: `CircleCI answered ${response.status} to ${route.method} ${route.path} with no body: the request succeeded.` };
    return { value: response.body };
  }
}
