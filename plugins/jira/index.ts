import { inject } from 'tsyringe';
import type { Settings } from '../../core/config/settings.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { AtlassianPassthroughPlugin, PassthroughTools } from '../atlassian/passthrough.js';
import { referenceConfigSections } from '../atlassian/product.js';
import { createSiteClient, siteProductBehaviour, siteProductSettings, type SiteProduct } from '../atlassian/site-product.js';
import type { ReadEnvelope, CursorEnvelope } from '../../core/schema/envelopes.js';
import { attachmentImage, GET_ATTACHMENT, type AttachmentArgs } from './attachment-image.js';
import { getIssue, GET_ISSUE, type GetIssueArgs } from './get-issue.js';
import {
  ADD_COMMENT,
  addComment,
  CREATE_ISSUE,
  createIssue,
  UPDATE_ISSUE,
  updateIssue,
  type AddCommentArgs,
  type CreateIssueArgs,
  type UpdateIssueArgs,
} from './issue-writes.js';
import { SEARCH, searchIssues, type SearchArgs } from './search.js';
import { JIRA_TOOLS } from './tool-docs.js';
import { TRANSITION_ISSUE, transitionIssue, type TransitionArgs } from './transition.js';
import { JIRA_TOOLSETS } from './toolsets.js';

const JIRA: SiteProduct = {
  vendor: 'jira',
  label: 'Jira',
  settingsPrefix: 'JIRA',
  cloudPrefixes: '/rest/',
  contextPathExample: '/jira',
  examplePath: '/rest/api/3/issue/PROJ-1',
};

/**
 * jira_get|post|put|patch|delete: the Jira REST API, text byte-identical to the reference Jira server;
 * jira_get_attachment, an image attachment as an image content block; and the typed tools for the common jobs
 * (search, read, create, update, transition, comment), in Markdown on Cloud and Data Center alike.
 */
@Plugin({ name: 'jira', version: '1.0.0', toolsets: JIRA_TOOLSETS, settings: siteProductSettings(JIRA), configSections: referenceConfigSections('jira') })
@PassthroughTools(JIRA_TOOLS)
export class JiraPlugin extends AtlassianPassthroughPlugin {
  constructor(@inject(TOKENS.Settings) settings: Settings) {
    super(createSiteClient(settings, JIRA), siteProductBehaviour(JIRA));
  }

  @Tool(GET_ATTACHMENT)
  getAttachment(ctx: ToolContext<typeof AttachmentArgs>): Promise<ToolOutput> {
    return attachmentImage(ctx, this.upstream);
  }

  @Tool(SEARCH)
  search(ctx: ToolContext<typeof SearchArgs>): Promise<ToolOutput<typeof CursorEnvelope>> {
    return searchIssues(ctx, this.upstream);
  }

  @Tool(GET_ISSUE)
  getIssue(ctx: ToolContext<typeof GetIssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return getIssue(ctx, this.upstream);
  }

  @Tool(CREATE_ISSUE)
  createIssue(ctx: ToolContext<typeof CreateIssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return createIssue(ctx, this.upstream);
  }

  @Tool(UPDATE_ISSUE)
  updateIssue(ctx: ToolContext<typeof UpdateIssueArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return updateIssue(ctx, this.upstream);
  }

  @Tool(TRANSITION_ISSUE)
  transitionIssue(ctx: ToolContext<typeof TransitionArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return transitionIssue(ctx, this.upstream);
  }

  @Tool(ADD_COMMENT)
  addComment(ctx: ToolContext<typeof AddCommentArgs>): Promise<ToolOutput<typeof ReadEnvelope>> {
    return addComment(ctx, this.upstream);
  }
}
