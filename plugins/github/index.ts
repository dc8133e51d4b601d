import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { ReadEnvelope } from '../../core/schema/envelopes.js';
import { TOKENS } from '../../core/tokens.js';
import { CANCEL_WORKFLOW_RUN, DISPATCH_WORKFLOW, RERUN_WORKFLOW, type CancelArgs, type DispatchArgs, type RerunArgs } from './actions-write-specs.js';
import { GithubSettings, githubWebUrl } from './github-client.js';
import { ADD_COMMENT, CREATE_ISSUE, UPDATE_ISSUE, type AddCommentArgs, type CreateIssueArgs, type UpdateIssueArgs } from './issue-tool-specs.js';
import {
  CREATE_PULL_REQUEST,
  CREATE_REVIEW,
  MERGE_PULL_REQUEST,
  type CreatePullRequestArgs,
  type CreateReviewArgs,
  type MergeArgs,
} from './pull-request-write-specs.js';
import { GithubReadTools } from './read-tools.js';
import { GITHUB_TOOLSETS } from './toolsets.js';
import { cancelRefusal, mergeRefusal } from './write-refusals.js';
import {
  cancelResult,
  commentResult,
  dispatchResult,
  issueResult,
  mergeResult,
  objectBody,
  pullRequestResult,
  rerunResult,
  reviewResult,
  type RunWhere,
} from './write-results.js';

/**
 * GitHub: the reads of read-tools.ts, and the writes an agent is asked for around a red build: file, edit and
 * comment on issues, open, review and merge pull requests, rerun, cancel and start workflows. Each write sends
 * its `ctx.route`, the request policy decided on (and an approver saw), and answers with what it made or
 * changed (write-results.ts). GitHub Enterprise Server works through GITHUB_API_URL.
 */
@Plugin({ name: 'github', version: '1.0.0', settings: GithubSettings, toolsets: GITHUB_TOOLSETS })
export class GithubPlugin extends GithubReadTools implements DevtoolsPlugin {
  /** The web address of this GitHub, for the links of writes GitHub answers without one. */
  private readonly web: string;
  constructor(@inject(TOKENS.Settings) settings: Settings, @inject(TOKENS.ArtifactStore) artifacts: ArtifactStore, @inject(TOKENS.Scrubber) scrub: Scrub) {
    super(settings, artifacts, scrub);
    this.web = githubWebUrl(settings.of(GithubSettings).GITHUB_API_URL);
  }

  @Tool(CREATE_ISSUE)
  async createIssue(ctx: ToolContext<typeof CreateIssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: issueResult(await this.written(ctx)) };
  }

  @Tool(UPDATE_ISSUE)
  async updateIssue(ctx: ToolContext<typeof UpdateIssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    // The body holds only the fields given (GitHub's names): those are what changed.
    return { value: issueResult(await this.written(ctx), Object.keys(ctx.route.body as object)) };
  }

  @Tool(ADD_COMMENT)
  async addComment(ctx: ToolContext<typeof AddCommentArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: commentResult(await this.written(ctx), ctx.args.issueNumber) };
  }

  @Tool(CREATE_PULL_REQUEST)
  async createPullRequest(ctx: ToolContext<typeof CreatePullRequestArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: pullRequestResult(await this.written(ctx)) };
  }

  @Tool(CREATE_REVIEW)
  async createReview(ctx: ToolContext<typeof CreateReviewArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: reviewResult(await this.written(ctx), ctx.args.pullNumber, ctx.args.comments?.length ?? 0) };
  }

  @Tool(MERGE_PULL_REQUEST)
  async mergePullRequest(ctx: ToolContext<typeof MergeArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const { owner, repo, pullNumber, method } = ctx.args;
    const merged = await this.written(ctx).catch((error: unknown) => {
      throw mergeRefusal(error, `Pull request #${pullNumber} of ${owner}/${repo}`);
    });
    return { value: mergeResult(merged, pullNumber, method, `${this.repoUrl(ctx.args)}/pull/${pullNumber}`) };
  }

  @Tool(RERUN_WORKFLOW)
  async rerunWorkflow(ctx: ToolContext<typeof RerunArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    // 201 with an empty object: the answer says no more than the request did.
    await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: rerunResult(this.run(ctx.args), ctx.args.failedOnly !== false) };
  }

  @Tool(CANCEL_WORKFLOW_RUN)
  async cancelWorkflowRun(ctx: ToolContext<typeof CancelArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const { owner, repo, runId } = ctx.args;
    await this.upstream.send(ctx, ctx.route, { expect: 'lenient' }).catch((error: unknown) => {
      throw cancelRefusal(error, `Workflow run ${runId} of ${owner}/${repo}`);
    });
    return { value: cancelResult(this.run(ctx.args)) };
  }

  @Tool(DISPATCH_WORKFLOW)
  async dispatchWorkflow(ctx: ToolContext<typeof DispatchArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    // 204 No Content: the run appears a few seconds later, so the answer names where to find it.
    await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: dispatchResult({ ...ctx.args, repoUrl: this.repoUrl(ctx.args) }) };
  }

  /** The JSON object a write answered with (an empty or non-object answer is an error, never a silent success). */
  private async written(ctx: ToolContext): Promise<Record<string, unknown>> {
    return objectBody((await this.upstream.send(ctx, ctx.route)).body, `${ctx.route.method} ${ctx.route.path}`);
  }

  private repoUrl(args: { owner: string; repo: string }): string {
    return `${this.web}/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;
  }

  private run(args: { owner: string; repo: string; runId: number }): RunWhere {
    return { runId: args.runId, htmlUrl: `${this.repoUrl(args)}/actions/runs/${args.runId}` };
  }
}
