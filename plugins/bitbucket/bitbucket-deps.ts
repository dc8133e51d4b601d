import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { ServiceLookup } from '../../core/plugin/contract.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { CursorEnvelope } from '../../core/schema/envelopes.js';
import type { PassthroughDeps } from '../atlassian/passthrough.js';
import { cursorFromNext } from './page-cursor.js';
import type { UploadLimits } from './upload-files.js';

/**
 * What the Bitbucket tools' handlers use: the BitbucketPlugin instance (index.ts), built from its `@inject`
 * constructor. Handlers send `ctx.route`, which the validate stage computed from the arguments: what policy
 * decided on is exactly what goes out; any further request passes the request gate.
 */
export interface BitbucketDeps extends PassthroughDeps {
  readonly artifacts: ArtifactStore;
  /** The server's one scrubber, for a diff or a log before it is shown or saved (an artifact is stored as given). */
  readonly scrub: Scrub;
  /** MCP_MAX_RESPONSE_BYTES, named when a diff or a log is too large to read. */
  readonly maxBytes: number;
  readonly uploadLimits: UploadLimits;
  /** Bitbucket Cloud's web host, for the link of a pipeline run (unknown on another base URL). */
  readonly webBase: string | undefined;
  /** First interval between two polls of a wait (CI_WAIT_POLL_MS). */
  readonly pollMs: number;
  /** The services of plugins it does not depend on: a wait's failure report (TOKENS.FailureReporter, the ci plugin's). */
  readonly services: ServiceLookup;
}

/** A Bitbucket page as `{data, nextCursor}`: the cursor stands for the `next` URL's page, never the URL itself. */
export async function page(bitbucket: BitbucketDeps, ctx: ToolContext): Promise<ToolOutput<typeof CursorEnvelope>> {
  const response = await bitbucket.upstream.send(ctx, ctx.route, { expect: 'json' });
  const body = response.body as { next?: unknown; isLastPage?: unknown; nextPageStart?: unknown } | null;
  // Cloud names the next page by a `next` URL; Data Center by `nextPageStart` until `isLastPage`.
  const dataCenter = body?.isLastPage === false && typeof body.nextPageStart === 'number' ? String(body.nextPageStart) : null;
  return { value: response.body, meta: { nextCursor: dataCenter ?? cursorFromNext(body?.next) } };
}
