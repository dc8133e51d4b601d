import type { ToolsetSpec } from '../../core/plugin/contract.js';

/** Jira's toolsets: the typed issue tools by default; the REST passthrough (the reference's tools) on request. */
export const JIRA_TOOLSETS: Record<string, ToolsetSpec> = {
  'jira.issues': { description: 'Search issues with JQL, read them in Markdown, file, update, transition and comment on them.' },
  'jira.rest': { description: "Jira's REST API as it is: GET, POST, PUT, PATCH and DELETE on any path.", default: false },
};
