import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { ReadEnvelope } from '../../core/schema/envelopes.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { bitbucketCredential, BitbucketSettings, createBitbucketClient } from './bitbucket-client.js';
import { uploadToDownloads } from './downloads-upload.js';
import { BITBUCKET_TOOLS } from './tool-docs.js';
import type { UploadLimits } from './upload-files.js';
import { UPLOAD, type UploadArgs } from './upload-spec.js';

/**
 * bb_get|post|put|patch|delete: the Bitbucket Cloud API, text byte-identical to the reference Bitbucket server;
 * and bb_upload, files to a repository's Downloads.
 */
@Plugin({ name: 'bitbucket', version: '1.0.0', settings: BitbucketSettings, configSections: referenceConfigSections('bitbucket') })
@PassthroughTools(BITBUCKET_TOOLS)
export class BitbucketPlugin extends AtlassianPassthroughPlugin {
  private readonly uploadLimits: UploadLimits;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
  ) {
    const appPassword = bitbucketCredential(settings)?.secretKey === 'ATLASSIAN_BITBUCKET_APP_PASSWORD';
    super(createBitbucketClient(settings), {
      plainTextStaysText: true,
      credentialsHint: () =>
        appPassword
          ? 'Bitbucket authenticated with ATLASSIAN_BITBUCKET_USERNAME and ATLASSIAN_BITBUCKET_APP_PASSWORD.'
          : 'Bitbucket authenticated with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (they take precedence over an app password; the token needs Bitbucket scopes).',
    });
    const { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_TOTAL_BYTES } = settings.of(BitbucketSettings);
    this.uploadLimits = { maxFileBytes: UPLOAD_MAX_FILE_BYTES, maxTotalBytes: UPLOAD_MAX_TOTAL_BYTES };
  }

  @Tool(UPLOAD)
  upload(ctx: ToolContext<typeof UploadArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return uploadToDownloads(ctx, this.upstream, this.artifacts, this.uploadLimits);
  }
}
