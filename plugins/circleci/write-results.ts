import type { UpstreamResponse } from '../../core/plugin/upstream-types.js';

/*
 * What a CircleCI write answers with: what it started (ids, number, state, and a web URL where one is known),
 * never empty text: a model shown nothing sends the write again.
 */

type Json = Record<string, unknown>;

const field = (body: unknown, key: string): unknown => (body !== null && typeof body === 'object' ? ((body as Json)[key] ?? null) : null);

/** The rerun: CircleCI answers 202 with the new workflow's id. */
export function rerunWorkflowResult(response: UpstreamResponse, args: { workflowId: string; fromFailed?: boolean }): Json {
  return { workflowId: field(response.body, 'workflow_id'), rerunOf: args.workflowId, fromFailed: args.fromFailed ?? true };
}

/** The pipeline started: CircleCI answers 201 with `{id, state, number, created_at}`. */
export function triggeredPipelineResult(response: UpstreamResponse, args: { projectSlug: string; branch?: string }, webApp: string | undefined): Json {
  const number = field(response.body, 'number');
  return {
    id: field(response.body, 'id'),
    number,
    state: field(response.body, 'state'),
    createdAt: field(response.body, 'created_at'),
    branch: args.branch ?? null,
    url: webApp !== undefined && typeof number === 'number' ? `${webApp}/pipelines/${webSlug(args.projectSlug)}/${number}` : null,
  };
}

/** The web app's slug of a project: the API's short VCS names spelt out (`gh/acme/api` is `github/acme/api`). */
function webSlug(projectSlug: string): string {
  const [vcs = '', ...rest] = projectSlug.split('/');
  const long: Record<string, string> = { gh: 'github', bb: 'bitbucket' };
  return [long[vcs] ?? vcs, ...rest].join('/');
}

/** CircleCI cloud's web app, when the API is cloud's; a CircleCI server installation's is not known here. */
export function cloudWebApp(apiBaseUrl: string): string | undefined {
  try {
    return new URL(apiBaseUrl).hostname === 'circleci.com' ? 'https://app.circleci.com' : undefined;
  } catch {
    return undefined;
  }
}
