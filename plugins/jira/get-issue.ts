import Type, { type Static } from 'typebox';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { IssueKey, jiraApi, READ, type JiraDeps } from './jira-api.js';
import { jsonObject } from '../atlassian/json-object.js';
import { JiraLabeller, labellingReads } from './provenance.js';

export const DEFAULT_ISSUE_FIELDS = ['summary', 'status', 'issuetype', 'priority', 'assignee', 'reporter', 'labels', 'created', 'updated', 'description'];

export const GetIssueArgs = Type.Object(
  {
    issueKey: IssueKey,
    fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: `Fields to return (default ${DEFAULT_ISSUE_FIELDS.join(', ')}).` }),
    ),
    comments: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 10, description: 'Newest comments to include, 0-100 (default 10).' })),
    ...renderingArgs,
  },
  { additionalProperties: false },
);

type Args = Static<typeof GetIssueArgs>;

export const GET_ISSUE = defineTool({
  name: 'jira_get_issue',
  title: 'Read a Jira issue',
  description: 'One issue: {key, url, fields, comments}, the description and comments in Markdown, people, status and type by name, newest comments first.',
  annotations: READ,
  input: GetIssueArgs,
  envelope: ReadEnvelope,
  toolset: 'jira.issues',
  provenance: { labels: true },
  route: (args: Args, upstream?: UpstreamBinding) => ({
    method: 'GET',
    path: jiraApi(upstream).issuePath(args.issueKey),
    query: { fields: (args.fields ?? DEFAULT_ISSUE_FIELDS).join(',') },
  }),
  // The newest comments, of the key Jira answers with (a moved issue answers with its new key).
  // Then the labelling's reads: the project's permission scheme, the authors' groups.
  further: (_args: Args, upstream?: UpstreamBinding) => [{ method: 'GET', path: `${jiraApi(upstream).base}/issue/*/comment` }, ...labellingReads(upstream)],
  /** The issue, then (when comments > 0) its newest comments: a second read, decided by policy as one. */
  handler: async (ctx, deps: JiraDeps) => {
    const jira = deps.upstream;
    const api = jiraApi(jira);
    const issue = jsonObject<IssueBody>((await jira.send(ctx, ctx.route, { expect: 'json' })).body);
    const key = typeof issue.key === 'string' ? issue.key : ctx.args.issueKey;
    const fields = Object.fromEntries(
      Object.entries(jsonObject<Record<string, unknown>>(issue.fields)).map(([name, value]) => [name, readable(name, value, api.markdown)]),
    );
    const value: Record<string, unknown> = { key, url: api.issueUrl(key), fields };
    const wanted = ctx.args.comments ?? 10;
    let comments: NonNullable<CommentPage['comments']> = [];
    if (wanted > 0) {
      const path = `${api.issuePath(key)}/comment`;
      const page = jsonObject<CommentPage>(
        (await jira.send(ctx, { method: 'GET', path, query: { maxResults: wanted, orderBy: '-created' } }, { expect: 'json' })).body,
      );
      comments = Array.isArray(page.comments) ? page.comments : [];
      value.comments = comments.map((c) => ({
        id: c.id,
        author: personName(c.author),
        created: c.created,
        body: api.markdown(c.body),
      }));
      value.commentCount = page.total ?? comments.length;
    }
    // Labelled once all is read, so the labelling's lookups (cached) come after the issue's own requests.
    const labeller = new JiraLabeller(deps, ctx);
    const labels = [await labeller.issue(key, jsonObject<Record<string, unknown>>(issue.fields), ['fields'], api.issueUrl(key), ISSUE_TEXT)];
    for (const [i, c] of comments.entries()) labels.push(await labeller.comment(key, c, ['comments', i], api.issueUrl(key)));
    return { value, provenance: labeller.result(labels) };
  },
});

interface IssueBody {
  key?: string;
  fields?: Record<string, unknown>;
}

/** The fields of an issue that people write. */
export const ISSUE_TEXT = ['summary', 'description', 'environment'];

interface CommentPage {
  comments?: Array<{ id?: string; author?: unknown; updateAuthor?: unknown; created?: string; updated?: string; body?: unknown }>;
  total?: number;
}

/** A field as a reader wants it: rich text as Markdown, a person by name, a status, type or priority by name. */
function readable(name: string, value: unknown, markdown: (v: unknown) => string): unknown {
  if (name === 'description' || name === 'environment') return value === null ? null : markdown(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (['assignee', 'reporter', 'creator'].includes(name)) return personName(value);
  const named = value as { name?: unknown };
  if (['status', 'issuetype', 'priority', 'resolution'].includes(name) && typeof named.name === 'string') return named.name;
  return value;
}

function personName(person: unknown): string | null {
  if (person === null || typeof person !== 'object') return null;
  const p = person as { displayName?: string; name?: string; accountId?: string };
  return p.displayName ?? p.name ?? p.accountId ?? null;
}
