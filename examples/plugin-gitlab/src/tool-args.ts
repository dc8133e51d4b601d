import { renderingArgs, Type } from 'mcp-devtools/plugin';

const Project = Type.String({ minLength: 1, description: 'Project ID (e.g. "278964") or full path (e.g. "gitlab-org/gitlab").' });
const Page = Type.Integer({ minimum: 1, default: 1, description: 'Page to fetch, from 1. Pass the nextPage of the previous result.' });
const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Results per page, 1-100 (default 20).' });
const PIPELINE_STATUSES = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'] as const;
const JOB_SCOPES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'waiting_for_resource', 'manual'] as const;

export const ListPipelinesArgs = Type.Object(
  {
    project: Project,
    status: Type.Optional(Type.Enum([...PIPELINE_STATUSES], { description: 'Only pipelines with this status.' })),
    ref: Type.Optional(Type.String({ minLength: 1, description: 'Only pipelines of this branch or tag.' })),
    updatedAfter: Type.Optional(Type.String({ format: 'date-time', description: 'Only pipelines updated after this ISO 8601 time.' })),
    page: Type.Optional(Page),
    perPage: Type.Optional(PerPage),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const ListPipelineJobsArgs = Type.Object(
  {
    project: Project,
    pipelineId: Type.Integer({ minimum: 1, description: 'Pipeline ID (the "id" of a pipeline from gitlab_list_pipelines).' }),
    scope: Type.Optional(Type.Enum([...JOB_SCOPES], { description: 'Only jobs in this state, e.g. "failed".' })),
    includeRetried: Type.Optional(Type.Boolean({ description: 'Include retried jobs (default false).' })),
    page: Type.Optional(Page),
    perPage: Type.Optional(PerPage),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GetArgs = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'REST API path relative to /api/v4, e.g. "/projects/gitlab-org%2Fgitlab/merge_requests". Never a full URL.' }),
    queryParams: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { description: 'Query parameters, e.g. {"state": "opened"}.' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

/** A project's API path; a full path such as group/project is sent URL-encoded, as GitLab requires. */
export const projectPath = (project: string): string => `/projects/${encodeURIComponent(project)}`;
