import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { ToolError, isToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { advisedTool, type HandlerContext } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { diffText } from '../../core/vendor/diff-text.js';
import { repoPath } from './repo-args.js';

/** The pull request asked for: bb_get_pull_request_diff's arguments. */
type PullRequestAt = {
  workspace: string;
  repoSlug: string;
  pullRequestId: number;
};

/** One side of a pull request, as Bitbucket describes it. */
interface Endpoint {
  branch?: { name?: unknown };
  commit?: { hash?: unknown };
  repository?: { full_name?: unknown };
}

/** The part of a pull request this tool reads. */
export interface PullRequestRefs {
  title?: unknown;
  source?: Endpoint;
  destination?: Endpoint;
}

const HASH = /^[0-9a-f]{7,40}$/i;

/**
 * The diff spec of a pull request: `SOURCE..DESTINATION`, which Bitbucket's diff endpoint reads as the source
 * against its merge base with the destination (topic diff), what the pull request page shows. A pull request from
 * a fork names the fork (`fork/repo:SOURCE..DESTINATION`), as Bitbucket's own diff links do. Those links separate
 * the commits with an encoded carriage return, which no request path may hold here; `..` is the documented form.
 */
export function diffSpec(pr: PullRequestRefs): string {
  const source = pr.source?.commit?.hash;
  const destination = pr.destination?.commit?.hash;
  if (typeof source !== 'string' || !HASH.test(source) || typeof destination !== 'string' || !HASH.test(destination))
    throw new ToolError('upstream_invalid_body', "Bitbucket's pull request has no source and destination commits to take the diff between.");
  const from = pr.source?.repository?.full_name;
  const into = pr.destination?.repository?.full_name;
  const fork = typeof from === 'string' && typeof into === 'string' && from.toLowerCase() !== into.toLowerCase();
  const repo = fork ? `${from.split('/').map(encodeURIComponent).join('/')}:` : '';
  return `${repo}${source}..${destination}`;
}

/** `pull request #412 "Title" (fix/x into main) of acme/api`: which diff the text is, in a sentence. */
function described(args: PullRequestAt, pr: PullRequestRefs): string {
  const title = typeof pr.title === 'string' && pr.title !== '' ? ` ${JSON.stringify(pr.title.length > 100 ? `${pr.title.slice(0, 100)}...` : pr.title)}` : '';
  const from = pr.source?.branch?.name;
  const into = pr.destination?.branch?.name;
  const branches = typeof from === 'string' && typeof into === 'string' ? ` (${from} into ${into})` : '';
  return `pull request #${args.pullRequestId}${title}${branches} of ${args.workspace}/${args.repoSlug}`;
}

/**
 * bb_get_pull_request_diff: the pull request (the route), then the diff between its commits. A diff too long
 * to show is cut and saved whole (core/vendor/diff-text.ts); one too large to read says how to read it in parts.
 */
export async function pullRequestDiffText(
  ctx: HandlerContext<PullRequestAt>,
  bitbucket: UpstreamClient,
  deps: { artifacts: ArtifactStore; scrub: Scrub; maxBytes: number },
): Promise<string> {
  const { args } = ctx;
  const pr = (await bitbucket.send(ctx, ctx.route, { expect: 'json' })).body as PullRequestRefs;
  const where = described(args, pr);
  try {
    const diffRoute = { method: 'GET', path: `${repoPath(args)}/diff/${diffSpec(pr)}`, query: { topic: true } } as const;
    const diff = await bitbucket.send(ctx, diffRoute, { expect: 'text', progress: `reading the diff of ${where}` });
    return await diffText(ctx, deps.artifacts, where, deps.scrub(diff.text));
  } catch (error) {
    if (!isToolError(error) || error.code !== 'upstream_too_large') throw error;
    const bbGet = await advisedTool(ctx, 'bb_get');
    throw new ToolError(
      'upstream_too_large',
      `The diff of ${where} was not read: it is larger than MCP_MAX_RESPONSE_BYTES (${deps.maxBytes} bytes). ` +
        `List its files with ${bbGet} on "${ctx.route.path}/diffstat", then read one file's diff with bb_get on "${repoPath(args)}/diff/${diffSpec(pr)}" and queryParams {"path": FILE}.`,
    );
  }
}
