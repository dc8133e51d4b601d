import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { atlassianTrustFrom, type AtlassianTrust } from '../atlassian/author-trust.js';
import type { DefinedTool } from '../../core/plugin/define-tool.js';
import { AtlassianPassthroughPlugin, passthroughTools, type PassthroughDeps } from '../atlassian/passthrough.js';
import type { JiraDeps } from './jira-api.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import { GET_ATTACHMENT } from './attachment-image.js';
import { GET_ISSUE } from './get-issue.js';
import { ADD_COMMENT, CREATE_ISSUE, UPDATE_ISSUE } from './issue-writes.js';
import { SEARCH } from './search.js';
import { JIRA_TOOLS } from './tool-docs.js';
import { TRANSITION_ISSUE } from './transition.js';
import { JIRA_TOOLSETS } from './toolsets.js';
import { labelledWhole } from '../../core/plugin/whole-result-label.js';

const JIRA: SiteProduct = {
  vendor: 'jira',
  label: 'Jira',
  settingsPrefix: 'JIRA',
  cloudPrefixes: '/rest/',
  contextPathExample: '/jira',
  examplePath: '/rest/api/3/issue/PROJ-1',
};

/** The typed tools take the client and the trust settings, the passthroughs the client and its behaviour. */
const JIRA_PLUGIN_TOOLS: Array<DefinedTool<JiraDeps & PassthroughDeps>> = [
  // An image can carry text, and an attachment names no author here: untrusted and private.
  labelledWhole(GET_ATTACHMENT, (ctx) => ({
    item: `attachment ${String(ctx.args.attachmentId)}`,
    resource: 'jira:unknown',
    why: 'an attachment is not labelled by its uploader',
  })),
  SEARCH,
  GET_ISSUE,
  CREATE_ISSUE,
  UPDATE_ISSUE,
  TRANSITION_ISSUE,
  ADD_COMMENT,
  ...passthroughTools(JIRA_TOOLS),
];

/**
 * jira_get|post|put|patch|delete: the Jira REST API, text byte-identical to the reference Jira server;
 * jira_get_attachment, an image attachment as an image content block; and the typed tools for the common jobs
 * (search, read, create, update, transition, comment), in Markdown on Cloud and Data Center alike.
 */
@Plugin({
  name: 'jira',
  version: '1.0.0',
  toolsets: JIRA_TOOLSETS,
  settings: siteProductSettings(JIRA),
  configSections: referenceConfigSections('jira'),
  tools: JIRA_PLUGIN_TOOLS,
})
export class JiraPlugin extends AtlassianPassthroughPlugin {
  /** Whose text is trusted (MCP_TRUSTED_GROUPS, MCP_TRUSTED_DOMAINS): the typed reads label by it. */
  readonly trust: AtlassianTrust;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, JIRA), siteProductBehaviour(JIRA));
    this.trust = atlassianTrustFrom(settings);
  }
}
