import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { nextPageFromLink } from '../../core/http/link-header.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ServiceLookup } from '../../core/plugin/contract.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { PagedEnvelope } from '../../core/schema/envelopes.js';
import { objectBody, type RunWhere } from './write-results.js';

/**
 * What the GitHub tools' handlers use: the GithubPlugin instance (index.ts), built by the kernel from its
 * `@inject` constructor. Handlers send `ctx.route`, which the validate stage computed from the arguments: what
 * policy decided on is exactly what goes out.
 */
export interface GithubDeps {
  readonly upstream: UpstreamClient;
  /** The same API and identity, asking for a pull request as a diff, and for a file's raw bytes. */
  readonly diffs: UpstreamClient;
  readonly raw: UpstreamClient;
  readonly artifacts: ArtifactStore;
  /**
   * The server's one scrubber, for a log before it is shown or saved: the kernel scrubs result text, but an
   * artifact is stored as given, and a workflow may have printed a token GitHub did not know to mask.
   */
  readonly scrub: Scrub;
  /** MCP_MAX_RESPONSE_BYTES, named when a log or a diff is too large to read. */
  readonly maxBytes: number;
  /** The web address of this GitHub, for the links of writes GitHub answers without one. */
  readonly web: string;
  /** First interval between two polls of a wait (CI_WAIT_POLL_MS). */
  readonly pollMs: number;
  /** The services of plugins it does not depend on: a wait's failure report (TOKENS.FailureReporter, the ci plugin's). */
  readonly services: ServiceLookup;
}

/** A list page as `{data, nextPage}`: nextPage comes from the Link header, null on the last page. */
export async function page(github: GithubDeps, ctx: ToolContext, route = ctx.route): Promise<ToolOutput<typeof PagedEnvelope>> {
  const response = await github.upstream.send(ctx, route);
  return { value: response.body, meta: { nextPage: nextPageFromLink(response.headers.get('link')) } };
}

/** The JSON object a write answered with (an empty or non-object answer is an error, never a silent success). */
export async function written(github: GithubDeps, ctx: ToolContext): Promise<Record<string, unknown>> {
  return objectBody((await github.upstream.send(ctx, ctx.route)).body, `${ctx.route.method} ${ctx.route.path}`);
}

export function repoUrl(github: GithubDeps, args: { owner: string; repo: string }): string {
  return `${github.web}/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;
}

export function runWhere(github: GithubDeps, args: { owner: string; repo: string; runId: number }): RunWhere {
  return { runId: args.runId, htmlUrl: `${repoUrl(github, args)}/actions/runs/${args.runId}` };
}
