import { inject } from 'tsyringe';
import type { Static } from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { secretScrubber, type Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { createGithubClient, GithubSettings } from './github-client.js';
import { logResultText } from '../log-text/log-result.js';
import { nextPageFromLink } from '../../core/http/link-header.js';
import { GET, JOB_LOGS, LIST_JOBS, LIST_RUNS, type JobLogsArgs } from './tool-specs.js';

/**
 * GitHub Actions: workflow runs and jobs (paged), job logs (tail as text, whole log as an artifact), and a
 * read-only passthrough for the rest of the REST API. GitHub Enterprise Server works through GITHUB_API_URL.
 * Handlers send `ctx.route`, which the validate stage computed from the arguments: what policy decided on is
 * exactly what goes out.
 */
@Plugin({ name: 'github', version: '1.0.0', settings: GithubSettings })
export class GithubPlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;
  private readonly maxBytes: number;
  /**
   * Configured secrets replaced in a log before it is shown or saved: the kernel scrubs result text, but an
   * artifact is stored as given, and a workflow may have printed a token GitHub did not know to mask.
   */
  private readonly scrub: Scrub;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
  ) {
    this.upstream = createGithubClient(settings);
    this.maxBytes = settings.get<number>('MCP_MAX_RESPONSE_BYTES');
    this.scrub = secretScrubber(settings.secretValues());
  }

  @Tool(LIST_RUNS)
  async listWorkflowRuns(ctx: ToolContext): Promise<ToolOutput> {
    return this.page(ctx);
  }

  @Tool(LIST_JOBS)
  async listWorkflowJobs(ctx: ToolContext): Promise<ToolOutput> {
    return this.page(ctx);
  }

  @Tool(JOB_LOGS)
  async getJobLogs(ctx: ToolContext): Promise<ToolOutput> {
    const args = ctx.args as Static<typeof JobLogsArgs>;
    try {
      // GitHub answers 302 to a signed URL on a blob host: followed, without the token.
      const response = await this.upstream.send(ctx, ctx.route!, { expect: 'text', followForeignRedirectWithoutAuth: true });
      const log = this.scrub(response.text);
      const where = `job ${args.jobId} of ${args.owner}/${args.repo}`;
      return { text: await logResultText(ctx, this.artifacts, { where, what: 'log', tailLines: args.tailLines, shown: log, whole: log }) };
    } catch (error) {
      // "Ask for a smaller page" means nothing for a log: say what can be done instead.
      if ((error as { code?: string }).code !== 'upstream_too_large') throw error;
      throw new ToolError('upstream_too_large', `The log of job ${args.jobId} is larger than MCP_MAX_RESPONSE_BYTES (${this.maxBytes} bytes), so it was not read. Find the failing step with github_list_workflow_jobs, or have MCP_MAX_RESPONSE_BYTES raised to read logs this large.`);
    }
  }

  @Tool(GET)
  async get(ctx: ToolContext): Promise<ToolOutput> {
    try {
      return { value: (await this.upstream.send(ctx, ctx.route!)).body };
    } catch (error) {
      // Some GitHub reads answer a bodiless 204 for "yes" (GET /user/following/{user}): a success, not a bad body.
      const { code, status } = error as { code?: string; status?: number };
      if (code === 'upstream_empty_body' && status === 204) return { text: `GitHub answered 204 No Content for GET ${ctx.route!.path}: the request succeeded and there is no body.` };
      throw error;
    }
  }

  /** A list page as `{data, nextPage}`: nextPage comes from the Link header, null on the last page. */
  private async page(ctx: ToolContext): Promise<ToolOutput> {
    const response = await this.upstream.send(ctx, ctx.route!);
    return { value: response.body, meta: { nextPage: nextPageFromLink(response.headers.get('link')) } };
  }
}
