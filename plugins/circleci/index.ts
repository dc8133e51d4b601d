import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { CacheInfo } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import type { CircleCiReadEnvelope } from './read-envelope.js';
import type { ReadEnvelope } from '../../core/schema/envelopes.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { CircleciSettings, createCircleciClient } from './circleci-client.js';
import type { V1JobDetail } from './job-steps.js';
import { stepLogsText } from './step-logs.js';
import { StepOutputReader } from './step-output.js';
import { DELETE, GET, LOGS, PATCH, POST, PUT, type GetArgs, type LogsArgs } from './tool-specs.js';
import { jobTests } from './job-tests.js';
import { pipelineStatus } from './pipeline-status.js';
import {
  FLAKY_TESTS,
  JOB_TESTS,
  PIPELINE_STATUS,
  RERUN_WORKFLOW,
  TRIGGER_PIPELINE,
  type FlakyArgs,
  type JobTestsArgs,
  type RerunArgs,
  type StatusArgs,
  type TriggerArgs,
} from './typed-specs.js';
import { cloudWebApp, rerunWorkflowResult, triggeredPipelineResult } from './write-results.js';
import { CIRCLECI_TOOLSETS } from './toolsets.js';

/** circleci_logs' defaults, applied here: the arguments are optional, as any argument with a default is. */
const LOGS_DEFAULTS = { failedOnly: true, tailLines: 500 };

/**
 * CircleCI v2: a cached read passthrough (`{data, cache}`), write passthroughs (text only, never cached,
 * never retried), a job's step output (from the v1.1 job detail), and typed tools for a branch's status,
 * reruns, triggers and tests. Handlers send `ctx.route`, which the validate stage computed from the arguments:
 * what policy decided on is exactly what goes out; any further request passes the request gate.
 */
@Plugin({ name: 'circleci', version: '1.0.0', toolsets: CIRCLECI_TOOLSETS, settings: CircleciSettings })
export class CircleciPlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;
  private readonly outputs: StepOutputReader;
  private readonly webApp: string | undefined;
  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
    /** Secrets replaced in step output before it is shown or saved (an artifact is stored as given): the server's one scrubber. */
    @inject(TOKENS.Scrubber) private readonly scrub: Scrub,
  ) {
    this.upstream = createCircleciClient(settings);
    this.outputs = new StepOutputReader(settings, this.upstream.identity.environment);
    this.webApp = cloudWebApp(settings.of(CircleciSettings).CIRCLECI_BASE_URL);
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
    const request = { ...ctx.args, failedOnly: ctx.args.failedOnly ?? LOGS_DEFAULTS.failedOnly, tailLines: ctx.args.tailLines ?? LOGS_DEFAULTS.tailLines };
    return { text: await stepLogsText(ctx, { outputs: this.outputs, artifacts: this.artifacts, scrub: this.scrub }, request, detail) };
  }

  @Tool(PIPELINE_STATUS)
  async pipelineStatus(ctx: ToolContext<typeof StatusArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: await pipelineStatus(ctx, this.upstream) };
  }

  @Tool(RERUN_WORKFLOW)
  async rerunWorkflow(ctx: ToolContext<typeof RerunArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: rerunWorkflowResult(response, ctx.args) };
  }

  @Tool(TRIGGER_PIPELINE)
  async triggerPipeline(ctx: ToolContext<typeof TriggerArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: triggeredPipelineResult(response, ctx.args, this.webApp) };
  }

  @Tool(JOB_TESTS)
  async jobTests(ctx: ToolContext<typeof JobTestsArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: await jobTests(ctx, this.upstream) };
  }

  @Tool(FLAKY_TESTS)
  async flakyTests(ctx: ToolContext<typeof FlakyArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.upstream.send(ctx, ctx.route)).body };
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
