import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { CacheInfo } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import type { CircleCiReadEnvelope } from './read-envelope.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { CircleciSettings, createCircleciClient } from './circleci-client.js';
import type { V1JobDetail } from './job-steps.js';
import { stepLogsText } from './step-logs.js';
import { StepOutputReader } from './step-output.js';
import { DELETE, GET, LOGS, PATCH, POST, PUT, type GetArgs, type LogsArgs } from './tool-specs.js';

/**
 * CircleCI v2: a cached read passthrough (`{data, cache}`), write passthroughs (text only, never cached,
 * never retried) and a job's step output (from the v1.1 job detail). Handlers send `ctx.route`, which the
 * validate stage computed from the arguments: what policy decided on is exactly what goes out.
 */
@Plugin({ name: 'circleci', version: '1.0.0', settings: CircleciSettings })
export class CircleciPlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;
  private readonly outputs: StepOutputReader;
  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
    /** Secrets replaced in step output before it is shown or saved (an artifact is stored as given): the server's one scrubber. */
    @inject(TOKENS.Scrubber) private readonly scrub: Scrub,
  ) {
    this.upstream = createCircleciClient(settings);
    this.outputs = new StepOutputReader(settings, this.upstream.identity.environment);
  }

  @Tool(GET)
  async get(ctx: ToolContext<typeof GetArgs>): Promise<ToolOutput<typeof CircleCiReadEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route);
    // Without the cache plugin (disabled, or HTTP_CACHE_ENABLED=false) every answer is a fresh fetch.
    const cache: CacheInfo = response.cache ?? { hit: false, ageMs: 0, fetchedAt: new Date(this.clock.now()).toISOString() };
    return { value: response.body, meta: { cache } };
  }

  @Tool(LOGS)
  async logs(ctx: ToolContext<typeof LogsArgs>): Promise<ToolOutput> {
    const detail = (await this.upstream.send(ctx, ctx.route)).body as V1JobDetail;
    return { text: await stepLogsText(ctx, { outputs: this.outputs, artifacts: this.artifacts, scrub: this.scrub }, ctx.args, detail) };
  }

  @Tool(POST)
  async post(ctx: ToolContext): Promise<ToolOutput> {
    return this.write(ctx);
  }

  @Tool(PUT)
  async put(ctx: ToolContext): Promise<ToolOutput> {
    return this.write(ctx);
  }

  @Tool(PATCH)
  async patch(ctx: ToolContext): Promise<ToolOutput> {
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
    const { route } = ctx;
    const response = await this.upstream.send(ctx, route, { expect: 'lenient' });
    if (response.kind === 'empty')
      return { text: `CircleCI answered ${response.status} to ${route.method} ${route.path} with no body: the request succeeded.` };
    return { value: response.body };
  }
}
