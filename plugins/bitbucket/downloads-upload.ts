import { isToolError, ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext } from '../../core/plugin/tool-context.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import type { BitbucketDeps } from './bitbucket-deps.js';
import { multipartBody } from './multipart.js';
import { prepareUpload, type UploadFile } from './upload-files.js';
import { UploadArgs } from './upload-args.js';

/** Bitbucket's largest page of downloads, and how many pages are read before the check gives up. */
const PAGE_LEN = 100;
const MAX_PAGES = 50;

export const UPLOAD = defineTool({
  name: 'bb_upload',
  title: 'Upload to Bitbucket Downloads',
  description:
    "Upload files to a repository's Downloads, from base64 content or an artifact id. A name that already exists is refused unless replace is true. Limits: UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_TOTAL_BYTES per call.",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: UploadArgs,
  // It reads an artifact another tool saved; it saves none of its own.
  savesArtifacts: false,
  envelope: ReadEnvelope,
  toolset: 'bitbucket.repos',
  // What policy sees: the files' names and whether they may overwrite; the bytes go as multipart/form-data.
  route: (args: UploadArgs) => ({
    method: 'POST',
    path: `/repositories/${args.workspace}/${args.repoSlug}/downloads`,
    body: { files: args.files.map((f) => f.name), replace: args.replace === true },
  }),
  // The names already in Downloads, page by page, read before anything is uploaded.
  further: (args: UploadArgs) => [{ method: 'GET', path: `/repositories/${args.workspace}/${args.repoSlug}/downloads` }],
  /**
   * bb_upload: `POST /2.0/repositories/{workspace}/{repo}/downloads` as multipart/form-data, one `files` part per
   * file. Bitbucket silently replaces a download of the same name, so the names are checked against a fresh
   * listing first and a clash is refused unless `replace` (a read then a write, not a transaction: a file added in
   * between is still replaced); the result says which files replaced one. Never retried: after a timeout or a
   * 5xx the outcome is unknown, and the error says how to check.
   */
  handler: async (ctx, { upstream: bitbucket, artifacts, uploadLimits: limits }: BitbucketDeps) => {
    const { args } = ctx;
    const files = await prepareUpload(args.files, ctx.principal, artifacts, limits);
    const downloads = ctx.route.path;
    const existing = new Set(await existingNames(ctx, bitbucket, downloads));
    const clashing = files.filter((f) => existing.has(f.name)).map((f) => f.name);
    if (args.replace !== true && clashing.length > 0) {
      throw new ToolError(
        'upload_refused',
        `Upload refused, nothing was sent: ${clashing.map((n) => JSON.stringify(n)).join(', ')} already exist in ${args.workspace}/${args.repoSlug} Downloads. Choose other names, or pass replace: true to overwrite them.`,
      );
    }
    // Worked out before sending: a name no URL can address is refused now, not reported after it was uploaded.
    const report = files.map((f) => uploaded(f, bitbucket, downloads, existing));
    const body = multipartBody(files.map((f) => ({ field: 'files', filename: f.name, contentType: f.mimeType, bytes: f.bytes })));
    try {
      await bitbucket.send(ctx, ctx.route, { rawBody: body, expect: 'lenient' });
    } catch (error) {
      throw explained(error, downloads);
    }
    return { value: { workspace: args.workspace, repoSlug: args.repoSlug, files: report } };
  },
});

/** Every download name of the repository, read page by page (never from a `next` URL: it could point elsewhere). */
async function existingNames(ctx: ToolContext, bitbucket: UpstreamClient, downloads: string): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    let body: { values?: unknown; next?: unknown };
    try {
      body = (await bitbucket.send(ctx, { method: 'GET', path: downloads, query: { pagelen: PAGE_LEN, page } }, { expect: 'json' })).body as typeof body;
    } catch (error) {
      if (!isToolError(error)) throw error;
      throw new ToolError(error.code, `${error.message} (while listing ${downloads} to check for names that exist; nothing was uploaded)`, {
        status: error.status,
        upstreamBody: error.upstreamBody,
        cause: error,
      });
    }
    if (!Array.isArray(body?.values))
      throw new ToolError(
        'upstream_invalid_body',
        `Bitbucket's listing of ${downloads} has no "values" list, so existing names cannot be checked; nothing was uploaded.`,
      );
    for (const item of body.values) if (typeof (item as { name?: unknown })?.name === 'string') names.push((item as { name: string }).name);
    if (body.values.length === 0 || typeof body.next !== 'string') return names;
  }
  throw new ToolError(
    'upload_refused',
    `Upload refused, nothing was sent: ${downloads} holds more than ${PAGE_LEN * MAX_PAGES} files, too many to check names against. Pass replace: true if overwriting is acceptable.`,
  );
}

function uploaded(file: UploadFile, bitbucket: UpstreamClient, downloads: string, existing: Set<string>): Record<string, unknown> {
  let url: string;
  try {
    url = bitbucket.prepare({ method: 'GET', path: `${downloads}/${encodeURIComponent(file.name)}` }).url.href;
  } catch {
    throw new ToolError(
      'upload_refused',
      `Upload refused, nothing was sent: the name ${JSON.stringify(file.name)} cannot be addressed in a download URL (it decodes to a path trick); choose another.`,
    );
  }
  return { name: file.name, size: file.bytes.length, mimeType: file.mimeType, replaced: existing.has(file.name), downloadUrl: url };
}

/** A refusal is definite; a timeout, a dropped connection or a 5xx may have happened after the upload landed. */
function explained(error: unknown, downloads: string): unknown {
  if (!isToolError(error)) return error;
  const unknown = ['upstream_timeout', 'upstream_unreachable', 'upstream_server_error'].includes(error.code);
  const message = unknown
    ? `The upload's outcome is unknown: ${error.message} It may have reached Bitbucket: list ${downloads} with bb_get before trying again (a retry replaces what landed).`
    : `${error.message} Nothing was uploaded.`;
  return new ToolError(error.code, message, {
    status: error.status,
    upstreamBody: error.upstreamBody,
    retryAfterSeconds: error.retryAfterSeconds,
    cause: error,
  });
}
