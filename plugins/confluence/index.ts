import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import { CONFLUENCE_TOOLS } from './tool-docs.js';

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
 * server (the Jira server's code with Confluence names).
 */
@Plugin({ name: 'confluence', version: '1.0.0', settings: siteProductSettings(CONFLUENCE), configSections: referenceConfigSections('confluence') })
@PassthroughTools(CONFLUENCE_TOOLS)
export class ConfluencePlugin extends AtlassianPassthroughPlugin {
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, CONFLUENCE), siteProductBehaviour(CONFLUENCE));
  }
}
