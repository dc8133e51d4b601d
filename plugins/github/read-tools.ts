import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { PagedEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { Tool } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { createGithubClient, DIFF_MEDIA_TYPE, RAW_MEDIA_TYPE } from './github-client.js';
import { logResultText } from '../../core/vendor/log-result.js';
import { nextPageFromLink } from '../../core/http/link-header.js';
import { contentBytes, fileText, listingText, pointerText, type ContentEntry } from './file-contents.js';
import { diffText } from './pull-request-diff.js';
import {
  GET_FILE,
  GET_ISSUE,
  GET_PULL_REQUEST,
  GET_PULL_REQUEST_DIFF,
  LIST_ISSUES,
  LIST_PULL_REQUESTS,
  LIST_REPOSITORIES,
  ORGANIZATION_ONLY_TYPES,
  type DiffArgs,
  type FileArgs,
  type IssueArgs,
  type ListIssuesArgs,
  type ListPullRequestsArgs,
  type ListReposArgs,
  type PullRequestArgs,
} from './repo-tool-specs.js';
import { checkRunsPage } from './check-runs.js';
import { graphqlAnswer } from './graphql-answer.js';
import { GRAPHQL, type GraphqlArgs } from './graphql-spec.js';
import type { GraphqlRoute } from '../../core/plugin/upstream-types.js';
import { SEARCH_ISSUES, type SearchIssuesArgs } from './issue-tool-specs.js';
import {
  DEFAULT_TAIL_LINES,
  GET,
  JOB_LOGS,
  LIST_CHECK_RUNS,
  LIST_JOBS,
  LIST_RUNS,
  type CheckRunsArgs,
  type GetArgs,
  type JobLogsArgs,
  type ListJobsArgs,
  type ListRunsArgs,
} from './tool-specs.js';

/**
 * The GitHub tools that read: workflow runs and jobs (paged), job logs (tail as text, whole log as an artifact),
 * pull requests, issues, files and repositories (repo-tool-specs.ts), searches, the checks of a commit, and a
 * read-only passthrough for the rest of the REST API. The plugin (index.ts) adds the writes.
 * Handlers send `ctx.route`, which the validate stage computed from the arguments: what policy decided on is
 * exactly what goes out.
 */
const ResponseLimit = Type.Pick(CoreSettings, ['MCP_MAX_RESPONSE_BYTES']);

export abstract class GithubReadTools {
  readonly upstream: UpstreamClient;
  /** The same API and identity, asking for a pull request as a diff, and for a file's raw bytes. */
  private readonly diffs: UpstreamClient;
  private readonly raw: UpstreamClient;
  private readonly maxBytes: number;
  constructor(
    settings: Settings,
    private readonly artifacts: ArtifactStore,
    /**
     * The server's one scrubber, for a log before it is shown or saved: the kernel scrubs result text, but an
     * artifact is stored as given, and a workflow may have printed a token GitHub did not know to mask.
     */
    private readonly scrub: Scrub,
  ) {
    this.upstream = createGithubClient(settings);
    this.diffs = createGithubClient(settings, DIFF_MEDIA_TYPE);
    this.raw = createGithubClient(settings, RAW_MEDIA_TYPE);
    this.maxBytes = settings.of(ResponseLimit).MCP_MAX_RESPONSE_BYTES;
  }

  @Tool(LIST_RUNS)
  async listWorkflowRuns(ctx: ToolContext<typeof ListRunsArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return this.page(ctx);
  }

  @Tool(LIST_JOBS)
  async listWorkflowJobs(ctx: ToolContext<typeof ListJobsArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return this.page(ctx);
  }

  @Tool(JOB_LOGS)
  async getJobLogs(ctx: ToolContext<typeof JobLogsArgs>): Promise<ToolOutput> {
    const args = ctx.args;
    const where = `job ${args.jobId} of ${args.owner}/${args.repo}`;
    try {
      // GitHub answers 302 to a signed URL on a blob host: followed, without the token.
      const response = await this.upstream.send(ctx, ctx.route, {
        expect: 'text',
        followForeignRedirectWithoutAuth: true,
        progress: `reading the log of ${where}`,
      });
      const log = this.scrub(response.text);
      return {
        text: await logResultText(ctx, this.artifacts, { where, what: 'log', tailLines: args.tailLines ?? DEFAULT_TAIL_LINES, shown: log, whole: log }),
      };
    } catch (error) {
      // "Ask for a smaller page" means nothing for a log: say what can be done instead.
      if ((error as { code?: string }).code !== 'upstream_too_large') throw error;
      throw new ToolError(
        'upstream_too_large',
        `The log of job ${args.jobId} is larger than MCP_MAX_RESPONSE_BYTES (${this.maxBytes} bytes), so it was not read. Find the failing step with github_list_workflow_jobs, or have MCP_MAX_RESPONSE_BYTES raised to read logs this large.`,
      );
    }
  }

  @Tool(LIST_PULL_REQUESTS)
  async listPullRequests(ctx: ToolContext<typeof ListPullRequestsArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return this.page(ctx);
  }

  @Tool(LIST_ISSUES)
  async listIssues(ctx: ToolContext<typeof ListIssuesArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    const page = await this.page(ctx);
    // GitHub lists pull requests as issues (they carry a `pull_request` key): left out unless asked for.
    if (ctx.args.includePullRequests === true || !Array.isArray(page.value)) return page;
    return { ...page, value: page.value.filter((item: unknown) => !(item !== null && typeof item === 'object' && 'pull_request' in item)) };
  }

  @Tool(LIST_REPOSITORIES)
  async listRepositories(ctx: ToolContext<typeof ListReposArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    try {
      return await this.page(ctx);
    } catch (error) {
      // The owner is not an organization: list it as a user (GitHub answers 404 for /orgs/{user}).
      if ((error as { status?: number }).status !== 404 || !ctx.route.path.startsWith('/orgs/')) throw error;
      const { owner, type } = ctx.args;
      if (type !== undefined && ORGANIZATION_ONLY_TYPES.has(type))
        throw new ToolError(
          'invalid_arguments',
          `${owner} is not an organization, so type "${type}" does not apply: a user's repositories are listed by type all, owner or member.`,
        );
      return this.page(ctx, { ...ctx.route, path: `/users/${encodeURIComponent(owner)}/repos` });
    }
  }

  @Tool(GET_PULL_REQUEST)
  async getPullRequest(ctx: ToolContext<typeof PullRequestArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.upstream.send(ctx, ctx.route)).body };
  }

  @Tool(GET_ISSUE)
  async getIssue(ctx: ToolContext<typeof IssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return { value: (await this.upstream.send(ctx, ctx.route)).body };
  }

  @Tool(GET_PULL_REQUEST_DIFF)
  async getPullRequestDiff(ctx: ToolContext<typeof DiffArgs>): Promise<ToolOutput> {
    const args = ctx.args;
    const where = `pull request #${args.pullNumber} of ${args.owner}/${args.repo}`;
    try {
      const response = await this.diffs.send(ctx, ctx.route, { expect: 'text', progress: `reading the diff of ${where}` });
      return { text: await diffText(ctx, this.artifacts, where, this.scrub(response.text)) };
    } catch (error) {
      const { code, status } = error as { code?: string; status?: number };
      // GitHub refuses diffs past its own limits with 406; a diff over MCP_MAX_RESPONSE_BYTES cannot be read either.
      if (status !== 406 && code !== 'upstream_too_large') throw error;
      const files = `${ctx.route.path}/files`;
      const why = status === 406 ? 'GitHub refuses to produce a diff this large' : `it is larger than MCP_MAX_RESPONSE_BYTES (${this.maxBytes} bytes)`;
      throw new ToolError(
        code === 'upstream_too_large' ? 'upstream_too_large' : 'upstream_http_error',
        `The diff of ${where} was not read: ${why}. List its changed files, each with its patch, with github_get on "${files}" (per_page, page).`,
        {
          status,
          upstreamBody: (error as ToolError).upstreamBody,
        },
      );
    }
  }

  @Tool(GET_FILE)
  async getFile(ctx: ToolContext<typeof FileArgs>): Promise<ToolOutput> {
    const args = ctx.args;
    const where = `${args.path.replace(/^\/+|\/+$/g, '') || '/'} of ${args.owner}/${args.repo} at ${args.ref ?? 'the default branch'}`;
    const body = (await this.upstream.send(ctx, ctx.route)).body as ContentEntry | ContentEntry[];
    if (Array.isArray(body)) return { text: listingText(where, body) };
    if (body === null || typeof body !== 'object')
      throw new ToolError('upstream_invalid_body', `GitHub answered with neither a file nor a directory for ${where}.`);
    if (body.type !== 'file') return { text: pointerText(where, body) };
    // Above 1 MB the contents API leaves `content` empty: the raw media type gives the bytes.
    const bytes = contentBytes(body) ?? ((await this.raw.send(ctx, ctx.route, { binary: true })).body as Buffer);
    return { text: await fileText(ctx, this.artifacts, { where, entry: body, bytes: Buffer.from(this.scrub(bytes.toString('latin1')), 'latin1') }) };
  }

  @Tool(GET)
  async get(ctx: ToolContext<typeof GetArgs>): Promise<ToolOutput> {
    try {
      return { value: (await this.upstream.send(ctx, ctx.route)).body };
    } catch (error) {
      // Some GitHub reads answer a bodiless 204 for "yes" (GET /user/following/{user}): a success, not a bad body.
      const { code, status } = error as { code?: string; status?: number };
      if (code === 'upstream_empty_body' && status === 204)
        return { text: `GitHub answered 204 No Content for GET ${ctx.route.path}: the request succeeded and there is no body.` };
      throw error;
    }
  }

  @Tool(GRAPHQL)
  async graphql(ctx: ToolContext<typeof GraphqlArgs, GraphqlRoute>): Promise<ToolOutput<typeof ReadEnvelope>> {
    // The request gate parsed the document as it is sent: a mutation here went through GITHUB_GRAPHQL_MUTATIONS.
    return { value: graphqlAnswer((await this.upstream.send(ctx, ctx.route)).body) };
  }

  @Tool(SEARCH_ISSUES)
  async searchIssues(ctx: ToolContext<typeof SearchIssuesArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    return this.page(ctx);
  }

  @Tool(LIST_CHECK_RUNS)
  async listCheckRuns(ctx: ToolContext<typeof CheckRunsArgs>): Promise<ToolOutput<typeof PagedEnvelope>> {
    const page = await this.page(ctx);
    return { ...page, value: checkRunsPage(page.value) };
  }

  /** A list page as `{data, nextPage}`: nextPage comes from the Link header, null on the last page. */
  protected async page(ctx: ToolContext, route = ctx.route): Promise<ToolOutput<typeof PagedEnvelope>> {
    const response = await this.upstream.send(ctx, route);
    return { value: response.body, meta: { nextPage: nextPageFromLink(response.headers.get('link')) } };
  }
}
