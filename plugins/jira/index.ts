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
import { JIRA_TOOLS } from './tool-docs.js';

const JiraSettings = Type.Object({
  ...SiteAccountSettings,
  JIRA_BASE_URL: Type.String({ default: '', description: 'Jira base URL; default https://${ATLASSIAN_SITE_NAME}.atlassian.net. Set it for Data Center / Server (a path such as /jira is kept).' }),
  JIRA_API_PREFIXES: apiPrefixesSetting('/rest/', 'jira_* paths must start with (the boundary that keeps them off Confluence on a shared site)'),
  ...identitySettings('JIRA', 'ATLASSIAN_API_TOKEN'),
});

const BEHAVIOUR: PassthroughBehaviour = {
  plainTextStaysText: false,
  credentialsHint: () => 'Jira authenticates with ATLASSIAN_USER_EMAIL and ATLASSIAN_API_TOKEN (an API token of that account).',
};

/** jira_get|post|put|patch|delete: the Jira REST API, text byte-identical to the reference Jira server. */
@Plugin({ name: 'jira', version: '1.0.0', settings: JiraSettings, configSections: referenceConfigSections('jira') })
export class JiraPlugin implements DevtoolsPlugin {
  readonly upstream: UpstreamClient;

  constructor(@inject(TOKENS.Settings) settings: Settings) {
    this.upstream = createSiteClient(settings, {
      vendor: 'jira',
      label: 'Jira',
      baseUrlKey: 'JIRA_BASE_URL',
      prefixesKey: 'JIRA_API_PREFIXES',
      identityPrefix: 'JIRA',
      examplePath: '/rest/api/3/issue/PROJ-1',
    });
  }

  @Tool(passthroughToolSpec(JIRA_TOOLS, 'get'))
  get(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(JIRA_TOOLS, 'post'))
  post(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(JIRA_TOOLS, 'put'))
  put(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(JIRA_TOOLS, 'patch'))
  patch(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }

  @Tool(passthroughToolSpec(JIRA_TOOLS, 'delete'))
  delete(ctx: ToolContext): Promise<ToolOutput> {
    return callPassthrough(this.upstream, ctx, BEHAVIOUR);
  }
}
