import { inject } from 'tsyringe';
import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { secret } from '../../core/config/setting-kinds.js';
import type { Settings } from '../../core/config/settings.js';
import { identitySettings } from '../../core/http/vendor-settings.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { ReadEnvelope } from '../../core/schema/envelopes.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough-plugin.js';
import { AccountSettings, apiPrefixesSetting, referenceConfigSections } from '../atlassian/settings.js';
import { bitbucketCredential, createBitbucketClient, DEFAULT_CREDENTIAL_LABEL } from './bitbucket-client.js';
import { uploadToDownloads } from './downloads-upload.js';
import { BITBUCKET_TOOLS } from './tool-docs.js';
import type { UploadLimits } from './upload-files.js';
import { UPLOAD, type UploadArgs } from './upload-spec.js';

const BitbucketSettings = Type.Object({
  ...AccountSettings,
  ATLASSIAN_BITBUCKET_USERNAME: Type.String({ default: '', description: 'Bitbucket username for app-password auth, used when ATLASSIAN_USER_EMAIL/ATLASSIAN_API_TOKEN are not both set.' }),
  ATLASSIAN_BITBUCKET_APP_PASSWORD: secret(Type.String({ default: '', description: 'Bitbucket app password of ATLASSIAN_BITBUCKET_USERNAME.' })),
  BITBUCKET_DEFAULT_WORKSPACE: Type.String({ default: '', description: 'Default workspace of the reference server (read for compatibility; the bb_* passthroughs take full paths).' }),
  BITBUCKET_BASE_URL: Type.String({ default: 'https://api.bitbucket.org', description: 'Bitbucket API base URL.' }),
  BITBUCKET_API_PREFIXES: apiPrefixesSetting('/2.0', 'bb_* paths live under; the first is prepended to paths that start with none of them'),
  ...identitySettings('BITBUCKET', DEFAULT_CREDENTIAL_LABEL),
  UPLOAD_MAX_FILE_BYTES: Type.Integer({ minimum: 1, default: 10 * 1024 * 1024, description: 'Largest file bb_upload sends, in bytes (decoded).' }),
  UPLOAD_MAX_TOTAL_BYTES: Type.Integer({ minimum: 1, default: 25 * 1024 * 1024, description: 'Largest total of the files of one bb_upload call, in bytes (decoded).' }),
});

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
    this.uploadLimits = { maxFileBytes: settings.get<number>('UPLOAD_MAX_FILE_BYTES'), maxTotalBytes: settings.get<number>('UPLOAD_MAX_TOTAL_BYTES') };
  }

  @Tool(UPLOAD)
  upload(ctx: ToolContext<typeof UploadArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return uploadToDownloads(ctx, this.upstream, this.artifacts, this.uploadLimits);
  }
}
