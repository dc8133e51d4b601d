import Type from 'typebox';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import type { ToolAnnotations } from '../../core/plugin/contract.js';
import type { AtlassianTrust } from '../atlassian/author-trust.js';
import { siteApiOf, type Deployment } from '../atlassian/deployment.js';
import { adfToMarkdown, markdownToAdf } from './markup/adf.js';
import { markdownToWiki, wikiToMarkdown } from './markup/wiki.js';

/*
 * What the typed Jira tools share: their arguments, their annotations, and the one difference between Cloud
 * and Data Center they care about. Cloud's REST API 3 takes and gives rich text as the Atlassian Document
 * Format; Data Center's (and Server's) API 2 as wiki markup. Both are Markdown to the caller.
 */

export const IssueKey = Type.String({ pattern: '^([A-Za-z][A-Za-z0-9_]*-[1-9][0-9]*|[1-9][0-9]*)$', description: 'Issue key, e.g. "PLAT-12" (or its id).' });
/**
 * Jira refuses a text field over 32,767 characters; refusing it here also keeps a pathological text from the
 * Markdown converters, whose time grows faster than the text (a megabyte of markup took them minutes).
 */
export const JIRA_TEXT_MAX = 32_767;
export const Markdown = (what: string): ReturnType<typeof Type.String> =>
  Type.String({ maxLength: JIRA_TEXT_MAX, description: `${what}, in Markdown (mention: [@Name](mention:accountId)).` });
/**
 * A Jira field's value, each kind typed for strict clients (the MCP Inspector's --strict refuses an untyped `{}`):
 * text, a number, null (clears the field), a list or an object (`{"name": "High"}`). Jira has no plain boolean
 * field (a checkbox is a list), and the default tools/list stays within its token budget without one.
 */
const FieldValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Null(),
  Type.Unsafe<unknown[]>({ type: 'array' }),
  Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
]);

export const ExtraFields = Type.Record(Type.String({ minLength: 1 }), FieldValue, {
  description: 'Other fields: {"priority": {"name": "High"}, "labels": ["api"]}.',
});

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
export const UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** What the typed Jira tools' handlers use of the JiraPlugin instance (index.ts): its client, whom the operator trusts. */
export interface JiraDeps {
  readonly upstream: UpstreamClient;
  readonly trust: AtlassianTrust;
}

/** One Jira as the typed tools address it. */
export interface JiraApi {
  deployment: Deployment;
  /** `/rest/api/3` on Cloud, `/rest/api/2` on Data Center. */
  base: string;
  /** Markdown as the API takes rich text: an ADF document (Cloud) or wiki markup (Data Center). */
  richText(markdown: string): unknown;
  /** Rich text as the API gives it, as Markdown. */
  markdown(value: unknown): string;
  issuePath(key: string): string;
  /** Where a person opens the issue. */
  issueUrl(key: string): string;
}

export function jiraApi(upstream: UpstreamBinding | undefined): JiraApi {
  const { deployment, webBaseUrl } = siteApiOf(upstream);
  const cloud = deployment === 'cloud';
  const base = cloud ? '/rest/api/3' : '/rest/api/2';
  return {
    deployment,
    base,
    richText: (markdown) => (cloud ? markdownToAdf(markdown) : markdownToWiki(markdown)),
    markdown: (value) => (cloud ? adfToMarkdown(value) : wikiToMarkdown(typeof value === 'string' ? value : '')),
    issuePath: (key) => `${base}/issue/${encodeURIComponent(key)}`,
    issueUrl: (key) => `${webBaseUrl}/browse/${encodeURIComponent(key)}`,
  };
}
