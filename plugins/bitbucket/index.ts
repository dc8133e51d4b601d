import { inject } from 'tsyringe';
import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import { cursorFromNext } from './page-cursor.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { CursorEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { bitbucketCredential, BitbucketSettings, createBitbucketClient, type BitbucketCredential } from './bitbucket-client.js';
import { uploadToDownloads } from './downloads-upload.js';
import { GET_PIPELINE_STEP_LOG, LIST_PIPELINES, RUN_PIPELINE, type ListPipelinesArgs, type RunPipelineArgs, type StepLogArgs } from './pipeline-specs.js';
import { pullRequestDiffText } from './pull-request-diff.js';
import {
  ADD_PULL_REQUEST_COMMENT,
  GET_PULL_REQUEST_DIFF,
  LIST_PULL_REQUESTS,
  type CommentArgs,
  type CommentBody,
  type DiffArgs,
  type ListPullRequestsArgs,
} from './pull-request-specs.js';
import { stepLogText } from './step-log.js';
import { BITBUCKET_TOOLS } from './tool-docs.js';
import type { UploadLimits } from './upload-files.js';
import { UPLOAD, type UploadArgs } from './upload-spec.js';
import { cloudWebBase, createdComment, startedPipeline } from './write-results.js';
import { BITBUCKET_TOOLSETS } from './toolsets.js';

const ResponseLimit = Type.Pick(CoreSettings, ['MCP_MAX_RESPONSE_BYTES']);

/** Which settings authenticated, added to a 401 so the fix is named. */
function credentialsHint(credential: BitbucketCredential | undefined): string {
  switch (credential?.secretKey) {
    case 'BITBUCKET_ACCESS_TOKEN':
      return 'Bitbucket authenticated with BITBUCKET_ACCESS_TOKEN (sent as Bearer; it takes precedence over the other credentials): check that it is valid and has the scopes this call needs.';
    case 'ATLASSIAN_BITBUCKET_APP_PASSWORD':
      return 'Bitbucket authenticated with ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD.';
    default:
      return 'Bitbucket authenticated with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (they take precedence over an app password; the token needs Bitbucket scopes).';
  }
}

/**
 * bb_get|post|put|patch|delete: the Bitbucket Cloud API, text byte-identical to the reference Bitbucket server;
 * bb_upload, files to a repository's Downloads; and typed tools for pull requests and pipelines (Cloud API 2.0).
 * Handlers send `ctx.route`, which the validate stage computed from the arguments: what policy decided on is
 * exactly what goes out; any further request passes the request gate.
 */
@Plugin({
  name: 'bitbucket',
  version: '1.0.0',
  toolsets: BITBUCKET_TOOLSETS,
  settings: BitbucketSettings,
  configSections: referenceConfigSections('bitbucket'),
})
@PassthroughTools(BITBUCKET_TOOLS)
export class BitbucketPlugin extends AtlassianPassthroughPlugin {
  private readonly uploadLimits: UploadLimits;
  private readonly maxBytes: number;
  private readonly webBase: string | undefined;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
    /** The server's one scrubber, for a diff or a log before it is shown or saved (an artifact is stored as given). */
    @inject(TOKENS.Scrubber) private readonly scrub: Scrub,
  ) {
    const credential = bitbucketCredential(settings);
    super(createBitbucketClient(settings), { plainTextStaysText: true, credentialsHint: () => credentialsHint(credential) });
    const { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_TOTAL_BYTES, BITBUCKET_BASE_URL } = settings.of(BitbucketSettings);
    this.uploadLimits = { maxFileBytes: UPLOAD_MAX_FILE_BYTES, maxTotalBytes: UPLOAD_MAX_TOTAL_BYTES };
    this.maxBytes = settings.of(ResponseLimit).MCP_MAX_RESPONSE_BYTES;
    this.webBase = cloudWebBase(BITBUCKET_BASE_URL);
  }

  @Tool(UPLOAD)
  upload(ctx: ToolContext<typeof UploadArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return uploadToDownloads(ctx, this.upstream, this.artifacts, this.uploadLimits);
  }

  @Tool(LIST_PULL_REQUESTS)
  listPullRequests(ctx: ToolContext<typeof ListPullRequestsArgs>): Promise<ToolOutput<typeof CursorEnvelope>> {
    return this.page(ctx);
  }

  @Tool(GET_PULL_REQUEST_DIFF)
  async getPullRequestDiff(ctx: ToolContext<typeof DiffArgs>): Promise<ToolOutput> {
    return { text: await pullRequestDiffText(ctx, this.upstream, { artifacts: this.artifacts, scrub: this.scrub, maxBytes: this.maxBytes }) };
  }

  @Tool(ADD_PULL_REQUEST_COMMENT)
  async addPullRequestComment(ctx: ToolContext<typeof CommentArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: createdComment(response, ctx.args, ctx.route.body as CommentBody) };
  }

  @Tool(LIST_PIPELINES)
  listPipelines(ctx: ToolContext<typeof ListPipelinesArgs>): Promise<ToolOutput<typeof CursorEnvelope>> {
    return this.page(ctx);
  }

  @Tool(GET_PIPELINE_STEP_LOG)
  async getPipelineStepLog(ctx: ToolContext<typeof StepLogArgs>): Promise<ToolOutput> {
    return { text: await stepLogText(ctx, this.upstream, { artifacts: this.artifacts, scrub: this.scrub, maxBytes: this.maxBytes }) };
  }

  @Tool(RUN_PIPELINE)
  async runPipeline(ctx: ToolContext<typeof RunPipelineArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: startedPipeline(response, ctx.args, this.webBase) };
  }

  /** A Bitbucket page as `{data, nextCursor}`: the cursor stands for the `next` URL's page, never the URL itself. */
  private async page(ctx: ToolContext): Promise<ToolOutput<typeof CursorEnvelope>> {
    const response = await this.upstream.send(ctx, ctx.route, { expect: 'json' });
    return { value: response.body, meta: { nextCursor: cursorFromNext((response.body as { next?: unknown } | null)?.next) } };
  }
}
