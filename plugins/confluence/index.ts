import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import type { CursorEnvelope, ReadEnvelope } from '../../core/schema/envelopes.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import {
  ADD_PAGE_COMMENT,
  addPageComment,
  CREATE_PAGE,
  createPage,
  GET_PAGE,
  getPage,
  type AddPageCommentArgs,
  type CreatePageArgs,
  type GetPageArgs,
} from './pages.js';
import { CONF_SEARCH, searchContent, type ConfSearchArgs } from './search.js';
import { CONFLUENCE_TOOLS } from './tool-docs.js';
import { UPDATE_PAGE, updatePage, type UpdatePageArgs } from './update-page.js';
import { CONFLUENCE_TOOLSETS } from './toolsets.js';

/** On Data Center, Confluence's API is under /rest/ (set CONFLUENCE_API_PREFIXES=/rest/ with CONFLUENCE_BASE_URL). */
const CONFLUENCE: SiteProduct = {
  vendor: 'confluence',
  label: 'Confluence',
  settingsPrefix: 'CONFLUENCE',
  cloudPrefixes: '/wiki/',
  contextPathExample: '/confluence',
  examplePath: '/wiki/api/v2/pages/123456',
};

/**
 * conf_get|post|put|patch|delete: the Confluence REST API, text byte-identical to the reference Confluence
 * server (the Jira server's code with Confluence names); and the typed tools for the common jobs (search, read,
 * create and update pages, comment), in Markdown on Cloud and Data Center alike.
 */
@Plugin({
  name: 'confluence',
  version: '1.0.0',
  toolsets: CONFLUENCE_TOOLSETS,
  settings: siteProductSettings(CONFLUENCE),
  configSections: referenceConfigSections('confluence'),
})
@PassthroughTools(CONFLUENCE_TOOLS)
export class ConfluencePlugin extends AtlassianPassthroughPlugin {
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, CONFLUENCE), siteProductBehaviour(CONFLUENCE));
  }

  @Tool(CONF_SEARCH)
  search(ctx: ToolContext<typeof ConfSearchArgs>): Promise<ToolOutput<typeof CursorEnvelope>> {
    return searchContent(ctx, this.upstream);
  }

  @Tool(GET_PAGE)
  getPage(ctx: ToolContext<typeof GetPageArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return getPage(ctx, this.upstream);
  }

  @Tool(CREATE_PAGE)
  createPage(ctx: ToolContext<typeof CreatePageArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return createPage(ctx, this.upstream);
  }

  @Tool(UPDATE_PAGE)
  updatePage(ctx: ToolContext<typeof UpdatePageArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return updatePage(ctx, this.upstream);
  }

  @Tool(ADD_PAGE_COMMENT)
  addComment(ctx: ToolContext<typeof AddPageCommentArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return addPageComment(ctx, this.upstream);
  }
}
