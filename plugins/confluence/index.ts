import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import type { DefinedTool } from '../../core/plugin/define-tool.js';
import { atlassianTrustFrom, type AtlassianTrust } from '../atlassian/author-trust.js';
import { AtlassianPassthroughPlugin, passthroughTools, type PassthroughDeps } from '../atlassian/passthrough.js';
import type { ConfluenceDeps } from './confluence-api.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import { ADD_PAGE_COMMENT, CREATE_PAGE, GET_PAGE } from './pages.js';
import { CONF_SEARCH } from './search.js';
import { CONFLUENCE_TOOLS } from './tool-docs.js';
import { UPDATE_PAGE } from './update-page.js';
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

/** The typed tools take the client and the trust settings, the passthroughs the client and its behaviour. */
const CONFLUENCE_PLUGIN_TOOLS: Array<DefinedTool<ConfluenceDeps & PassthroughDeps>> = [
  CONF_SEARCH,
  GET_PAGE,
  CREATE_PAGE,
  UPDATE_PAGE,
  ADD_PAGE_COMMENT,
  ...passthroughTools(CONFLUENCE_TOOLS),
];

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
  tools: CONFLUENCE_PLUGIN_TOOLS,
})
export class ConfluencePlugin extends AtlassianPassthroughPlugin {
  /** Whose text is trusted (MCP_TRUSTED_GROUPS, MCP_TRUSTED_DOMAINS): the typed reads label by it. */
  readonly trust: AtlassianTrust;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, CONFLUENCE), siteProductBehaviour(CONFLUENCE));
    this.trust = atlassianTrustFrom(settings);
  }
}
