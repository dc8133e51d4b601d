import Type, { type Static } from 'typebox';
import type { UpstreamBinding } from '../../core/plugin/upstream-types.js';
import { jiraTarget, projectOfKey } from './provenance.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { withBody } from '../atlassian/route-body.js';
import { CREATE, ExtraFields, IssueKey, jiraApi, Markdown, UPDATE, type JiraDeps } from './jira-api.js';
import { jsonObject } from '../atlassian/json-object.js';

/*
 * jira_create_issue, jira_update_issue and jira_add_comment: each one request, whose route is exactly what is
 * sent (the Markdown already converted), and each answers with what it made or changed.
 */

export const CreateIssueArgs = Type.Object(
  {
    projectKey: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$', description: 'Project key, e.g. "PLAT".' }),
    issueType: Type.String({ minLength: 1, description: 'Issue type name, e.g. "Bug", "Task", "Story" (or its id).' }),
    summary: Type.String({ minLength: 1, maxLength: 255, description: 'One-line title.' }),
    description: Type.Optional(Markdown('Description')),
    fields: Type.Optional(ExtraFields),
  },
  { additionalProperties: false },
);

export const CREATE_ISSUE = defineTool({
  name: 'jira_create_issue',
  title: 'Create a Jira issue',
  description: 'Create an issue. Answers {key, id, url}.',
  annotations: CREATE,
  provenance: { labels: false, target: (args: Static<typeof CreateIssueArgs>) => jiraTarget(args.projectKey.toUpperCase()) },
  input: CreateIssueArgs,
  envelope: ReadEnvelope,
  toolset: 'jira.issues',
  route: (args: Static<typeof CreateIssueArgs>, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    return withBody({ method: 'POST', path: `${api.base}/issue` }, () => ({
      fields: {
        ...args.fields,
        project: { key: args.projectKey },
        issuetype: /^[0-9]+$/.test(args.issueType) ? { id: args.issueType } : { name: args.issueType },
        summary: args.summary,
        ...(args.description === undefined ? {} : { description: api.richText(args.description) }),
      },
    }));
  },
  handler: async (ctx, { upstream: jira }: JiraDeps) => {
    const created = jsonObject<{ id: string; key: string }>((await jira.send(ctx, ctx.route, { expect: 'json' })).body);
    const key = created.key ?? '';
    return { value: { key, id: created.id ?? null, url: jiraApi(jira).issueUrl(key) } };
  },
});

export const UpdateIssueArgs = Type.Object(
  {
    issueKey: IssueKey,
    summary: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'New title.' })),
    description: Type.Optional(Markdown('New description (replaces the old one)')),
    fields: Type.Optional({ ...ExtraFields, minProperties: 1 }),
  },
  // The key and at least one thing to set.
  { additionalProperties: false, minProperties: 2 },
);

export const UPDATE_ISSUE = defineTool({
  name: 'jira_update_issue',
  title: 'Update a Jira issue',
  description:
    'Set fields of an issue (at least one of summary, description, fields). Answers {key, url, updated: [field names]}. Status changes: jira_transition_issue.',
  annotations: UPDATE,
  provenance: { labels: false, target: (args: Static<typeof UpdateIssueArgs>) => jiraTarget(projectOfKey(args.issueKey)) },
  input: UpdateIssueArgs,
  envelope: ReadEnvelope,
  toolset: 'jira.issues',
  route: (args: Static<typeof UpdateIssueArgs>, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    return withBody({ method: 'PUT', path: api.issuePath(args.issueKey) }, () => ({ fields: updatedFields(args, api.richText) }));
  },
  handler: async (ctx, { upstream: jira }: JiraDeps) => {
    const { issueKey, summary, description, fields } = ctx.args;
    const updated = [...Object.keys(fields ?? {}), ...(summary === undefined ? [] : ['summary']), ...(description === undefined ? [] : ['description'])];
    await jira.send(ctx, ctx.route, { expect: 'lenient' });
    return { value: { key: issueKey, url: jiraApi(jira).issueUrl(issueKey), updated: [...new Set(updated)] } };
  },
});

/** The fields to set: `fields`, with the named arguments on top. */
function updatedFields(args: Static<typeof UpdateIssueArgs>, richText: (markdown: string) => unknown): Record<string, unknown> {
  return {
    ...args.fields,
    ...(args.summary === undefined ? {} : { summary: args.summary }),
    ...(args.description === undefined ? {} : { description: richText(args.description) }),
  };
}

export const AddCommentArgs = Type.Object({ issueKey: IssueKey, body: { ...Markdown('Comment'), minLength: 1 } }, { additionalProperties: false });

export const ADD_COMMENT = defineTool({
  name: 'jira_add_comment',
  title: 'Comment on a Jira issue',
  description: 'Add a comment to an issue. Answers {issueKey, id, url, created}.',
  annotations: CREATE,
  provenance: { labels: false, target: (args: Static<typeof AddCommentArgs>) => jiraTarget(projectOfKey(args.issueKey)) },
  input: AddCommentArgs,
  envelope: ReadEnvelope,
  toolset: 'jira.issues',
  route: (args: Static<typeof AddCommentArgs>, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    return withBody({ method: 'POST', path: `${api.issuePath(args.issueKey)}/comment` }, () => ({ body: api.richText(args.body) }));
  },
  handler: async (ctx, { upstream: jira }: JiraDeps) => {
    const comment = jsonObject<{ id: string; created: string }>((await jira.send(ctx, ctx.route, { expect: 'json' })).body);
    const key = ctx.args.issueKey;
    const url = `${jiraApi(jira).issueUrl(key)}?focusedCommentId=${encodeURIComponent(comment.id ?? '')}`;
    return { value: { issueKey: key, id: comment.id ?? null, url, created: comment.created ?? null } };
  },
});
