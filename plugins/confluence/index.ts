import { inject } from 'tsyringe';
import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import { identitySettings } from '../../core/http/vendor-settings.js';
import type { ToolContext, ToolOutput } from '../../core/pipeline/call-context.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { callPassthrough, type PassthroughBehaviour } from '../atlassian/passthrough-call.js';
import { passthroughToolSpec } from '../atlassian/passthrough-tools.js';
import { apiPrefixesSetting, referenceConfigSections, SiteAccountSettings } from '../atlassian/settings.js';
import { createSiteClient } from '../atlassian/site-client.js';
import { CONFLUENCE_TOOLS } from './tool-docs.js';

const ConfluenceSettings = Type.Object({
  ...SiteAccountSettings,
  CONFLUENCE_BASE_URL: Type.String({ default: '', description: 'Confluence base URL; default https://${ATLASSIAN_SITE_NAME}.atlassian.net. Set it for Data Center / Server (a path such as /confluence is kept).' }),
  CONFLUENCE_API_PREFIXES: apiPrefixesSetting('/wiki/', 'conf_* paths must start with (the boundary that keeps them off Jira on a shared site; /rest/ on Data Center)'),
  ...identitySettings('CONFLUENCE', 'ATLASSIAN_API_TOKEN'),
});

const BEHAVIOUR: PassthroughBehaviour = {
  plainTextStaysText: false,
  credentialsHint: () => 'Confluence authenticates with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (an API token of that account).',
};

/** conf_get|post|put|patch|delete: the Confluence REST API, text byte-identical to the reference servers. */
@Plugin({ name: 'confluence', version: '1.0.0', settings: ConfluenceSettings, configSections: referenceConfigSections('confluence') })
export class ConfluencePlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = createSiteClient(settings, {
      vendor: 'confluence',
      label: 'Confluence',
      baseUrlKey: 'CONFLUENCE_BASE_URL',
      prefixesKey: 'CONFLUENCE_API_PREFIXES',
      identityPrefix: 'CONFLUENCE',
      examplePath: '/wiki/api/v2/pages/123456',
    });
  }

  @Tool(passthroughToolSpec(CONFLUENCE_TOOLS, 'get'))
  get(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(CONFLUENCE_TOOLS, 'post'))
  post(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(CONFLUENCE_TOOLS, 'put'))
  put(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(CONFLUENCE_TOOLS, 'patch'))
  patch(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(CONFLUENCE_TOOLS, 'delete'))
  delete(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }
}
