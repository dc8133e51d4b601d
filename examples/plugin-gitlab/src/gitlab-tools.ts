import { defineTool, PagedEnvelope, READ, ReadEnvelope, type ToolContext, type ToolOutput, type UpstreamClient } from 'mcp-devtools/plugin';
import { nextPageOf } from './next-page.js';
import { GetArgs, ListPipelineJobsArgs, ListPipelinesArgs, projectPath } from './tool-args.js';

/** What the tools use of their plugin: its GitLab client. GitlabPlugin has it; a test may pass any object that does. */
export interface GitlabDeps {
  readonly upstream: UpstreamClient;
}

export const listPipelines = defineTool({
  name: 'gitlab_list_pipelines',
  title: 'List GitLab CI/CD pipelines',
  description:
    'List pipelines of a GitLab project, newest first, optionally by status, ref or update time. The result is {data, nextPage}: ' +
    'data is GitLab\'s page of pipelines after jq; nextPage is the page to pass as "page" for more, or null on the last page. ' +
    'Then list a pipeline\'s jobs with gitlab_list_pipeline_jobs.',
  annotations: READ,
  input: ListPipelinesArgs,
  envelope: PagedEnvelope,
  route: (args) => ({
    method: 'GET',
    path: `${projectPath(args.project)}/pipelines`,
    query: { status: args.status, ref: args.ref, updated_after: args.updatedAfter, page: args.page, per_page: args.perPage },
  }),
  handler: (ctx, gitlab: GitlabDeps) => page(ctx, gitlab),
});

export const listPipelineJobs = defineTool({
  name: 'gitlab_list_pipeline_jobs',
  title: 'List jobs of a GitLab pipeline',
  description:
    'List the jobs of one pipeline with their stage, status and failure_reason. The result is {data, nextPage}, as for gitlab_list_pipelines. ' +
    'To see what failed, pass scope "failed" and project e.g. jq "[*].{id: id, name: name, stage: stage, reason: failure_reason}".',
  annotations: READ,
  input: ListPipelineJobsArgs,
  envelope: PagedEnvelope,
  route: (args) => ({
    method: 'GET',
    path: `${projectPath(args.project)}/pipelines/${args.pipelineId}/jobs`,
    query: { scope: args.scope, include_retried: args.includeRetried, page: args.page, per_page: args.perPage },
  }),
  handler: (ctx, gitlab: GitlabDeps) => page(ctx, gitlab),
});

export const get = defineTool({
  name: 'gitlab_get',
  title: 'GitLab REST API GET',
  description:
    'Read-only GET of any GitLab REST API path (merge requests, environments, job artifacts...), relative to /api/v4. ' +
    'Encode a project\'s full path as one segment ("group%2Fproject"). Use jq (JMESPath) to keep only the fields you need.',
  annotations: READ,
  input: GetArgs,
  envelope: ReadEnvelope,
  cache: true, // GitLab answers with ETags: repeated reads revalidate instead of spending rate limit
  route: (args) => ({ method: 'GET', path: args.path, query: args.queryParams }),
  handler: async (ctx, gitlab: GitlabDeps) => ({ value: (await gitlab.upstream.send(ctx, ctx.route)).body }),
});

/** A list page as `{data, nextPage}`. */
async function page(ctx: ToolContext, gitlab: GitlabDeps): Promise<ToolOutput<typeof PagedEnvelope>> {
  const response = await gitlab.upstream.send(ctx, ctx.route);
  return { value: response.body, meta: { nextPage: nextPageOf(response.headers) } };
}
