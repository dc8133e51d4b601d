import type { UpstreamResponse } from '../../core/plugin/upstream-types.js';

/*
 * What a Bitbucket write answers with: what it made, in a few fields (its id, number, state and web URL), not the
 * whole resource Bitbucket echoes back. A success is never empty text: a model shown nothing sends it again.
 */

type Json = Record<string, unknown>;

const field = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Json)[k] : undefined), value);
const orNull = (value: unknown): unknown => (value === undefined ? null : value);

/** Bitbucket's comment body: the Markdown as `content.raw`, anchored to a file (and a line of it) when asked. */
export interface CommentBody {
  content: { raw: string };
  inline?: { path: string; to?: number };
}

/** The comment made: `{id, url, pullRequestId, inline, createdOn}`. */
export function createdComment(response: UpstreamResponse, args: { pullRequestId: number }, sent: CommentBody): Json {
  const body = response.body;
  return {
    id: orNull(field(body, 'id')),
    url: orNull(field(body, 'links', 'html', 'href')),
    pullRequestId: args.pullRequestId,
    inline: orNull(field(body, 'inline') ?? sent.inline),
    createdOn: orNull(field(body, 'created_on')),
  };
}

/**
 * The pipeline started: `{uuid, buildNumber, state, branch, pipeline, url}`. Bitbucket gives a pipeline no web
 * link; its page is the repository's `pipelines/results/{build_number}`, from the repository's own link, or, on
 * Bitbucket Cloud (`webBase`), from its full name.
 */
export function startedPipeline(response: UpstreamResponse, args: { branch: string; pipeline?: string }, webBase: string | undefined): Json {
  const body = response.body;
  const buildNumber = field(body, 'build_number');
  const repoPage = field(body, 'repository', 'links', 'html', 'href') ?? fullNameUrl(webBase, field(body, 'repository', 'full_name'));
  const url = typeof repoPage === 'string' && typeof buildNumber === 'number' ? `${repoPage.replace(/\/+$/, '')}/pipelines/results/${buildNumber}` : null;
  return {
    uuid: orNull(field(body, 'uuid')),
    buildNumber: orNull(buildNumber),
    state: orNull(field(body, 'state', 'name')),
    branch: orNull(field(body, 'target', 'ref_name') ?? args.branch),
    pipeline: args.pipeline ?? null,
    url,
  };
}

function fullNameUrl(webBase: string | undefined, fullName: unknown): string | undefined {
  if (webBase === undefined || typeof fullName !== 'string') return undefined;
  return `${webBase}/${fullName.split('/').map(encodeURIComponent).join('/')}`;
}

/** Bitbucket Cloud's web host, when the API is Cloud's; a Data Center or proxy base URL has none we can know. */
export function cloudWebBase(apiBaseUrl: string): string | undefined {
  try {
    return new URL(apiBaseUrl).hostname === 'api.bitbucket.org' ? 'https://bitbucket.org' : undefined;
  } catch {
    return undefined;
  }
}
