import { inject } from 'tsyringe';
import Type from 'typebox';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import type { Settings } from '../../core/config/settings.js';
import type { ServiceLookup } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, passthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { bitbucketCredential, BitbucketSettings, createBitbucketClient, type BitbucketCredential } from './bitbucket-client.js';
import type { BitbucketDeps } from './bitbucket-deps.js';
import { UPLOAD } from './downloads-upload.js';
import { GET_PIPELINE_STEP_LOG, LIST_PIPELINES, RUN_PIPELINE } from './pipeline-tools.js';
import { ADD_PULL_REQUEST_COMMENT, GET_PULL_REQUEST_DIFF, LIST_PULL_REQUESTS } from './pull-request-tools.js';
import { BITBUCKET_TOOLS } from './tool-docs.js';
import type { UploadLimits } from './upload-files.js';
import { cloudWebBase } from './write-results.js';
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
 * bb_upload, files to a repository's Downloads (downloads-upload.ts); and typed tools for pull requests and
 * pipelines (Cloud API 2.0). Each tool is declared whole in its family's file; this class is what their handlers
 * use (BitbucketDeps).
 */
@Plugin({
  name: 'bitbucket',
  version: '1.0.0',
  toolsets: BITBUCKET_TOOLSETS,
  settings: BitbucketSettings,
  configSections: referenceConfigSections('bitbucket'),
  tools: [
    ...[UPLOAD, LIST_PULL_REQUESTS, GET_PULL_REQUEST_DIFF, ADD_PULL_REQUEST_COMMENT, LIST_PIPELINES, GET_PIPELINE_STEP_LOG, RUN_PIPELINE],
    ...passthroughTools(BITBUCKET_TOOLS),
  ],
})
export class BitbucketPlugin extends AtlassianPassthroughPlugin implements BitbucketDeps {
  readonly uploadLimits: UploadLimits;
  readonly maxBytes: number;
  readonly webBase: string | undefined;
  readonly pollMs: number;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ArtifactStore) readonly artifacts: ArtifactStore,
    @inject(TOKENS.Scrubber) readonly scrub: Scrub,
    @inject(TOKENS.Services) readonly services: ServiceLookup,
  ) {
    const credential = bitbucketCredential(settings);
    super(createBitbucketClient(settings), { plainTextStaysText: true, credentialsHint: () => credentialsHint(credential) });
    const { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_TOTAL_BYTES, BITBUCKET_BASE_URL, CI_WAIT_POLL_MS } = settings.of(BitbucketSettings);
    this.uploadLimits = { maxFileBytes: UPLOAD_MAX_FILE_BYTES, maxTotalBytes: UPLOAD_MAX_TOTAL_BYTES };
    this.maxBytes = settings.of(ResponseLimit).MCP_MAX_RESPONSE_BYTES;
    this.webBase = cloudWebBase(BITBUCKET_BASE_URL);
    this.pollMs = CI_WAIT_POLL_MS;
  }
}
