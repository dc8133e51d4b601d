import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import { attachmentImage, GET_ATTACHMENT, type AttachmentArgs } from './attachment-image.js';
import { JIRA_TOOLS } from './tool-docs.js';

const JIRA: SiteProduct = {
  vendor: 'jira',
  label: 'Jira',
  settingsPrefix: 'JIRA',
  cloudPrefixes: '/rest/',
  contextPathExample: '/jira',
  examplePath: '/rest/api/3/issue/PROJ-1',
};

/**
 * jira_get|post|put|patch|delete: the Jira REST API, text byte-identical to the reference Jira server; and
 * jira_get_attachment, an image attachment as an image content block.
 */
@Plugin({ name: 'jira', version: '1.0.0', settings: siteProductSettings(JIRA), configSections: referenceConfigSections('jira') })
@PassthroughTools(JIRA_TOOLS)
export class JiraPlugin extends AtlassianPassthroughPlugin {
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, JIRA), siteProductBehaviour(JIRA));
  }

  @Tool(GET_ATTACHMENT)
  getAttachment(ctx: ToolContext<typeof AttachmentArgs>): Promise<ToolOutput> {
    return attachmentImage(ctx, this.upstream);
  }
}
