import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { UpstreamBinding, UpstreamRequest } from '../../core/plugin/upstream-types.js';
import type { FurtherRoute } from '../../core/plugin/contract.js';
import { jiraTarget, projectOfKey } from './provenance.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { FROM_UPSTREAM } from '../../core/plugin/tool-spec.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { withBody } from '../atlassian/route-body.js';
import { CREATE, IssueKey, jiraApi, Markdown, type JiraDeps } from './jira-api.js';
import { jsonObject } from '../atlassian/json-object.js';

export const TransitionArgs = Type.Object(
  {
    issueKey: IssueKey,
    transition: Type.String({ minLength: 1, description: 'Transition name as the workflow shows it, e.g. "In Review" (case-insensitive), or its id.' }),
    comment: Type.Optional(Markdown('Comment added with the transition (why)')),
  },
  { additionalProperties: false },
);

type Args = Static<typeof TransitionArgs>;

const isId = (transition: string): boolean => /^[0-9]+$/.test(transition);

/**
 * The route is the transition's POST. A transition named rather than given by id is resolved to its id from
 * the issue's transitions first (a read); the POST then carries that id, a further request the tool declares
 * with its body (everything but the id as the route has it), which the request gate holds it to.
 */
export const TRANSITION_ISSUE = defineTool({
  name: 'jira_transition_issue',
  title: 'Move a Jira issue through its workflow',
  description:
    'Move an issue to another status by a transition of its workflow (name or id), optionally with a comment. An unknown name lists the transitions available. Answers {key, url, transition, status}.',
  annotations: CREATE,
  provenance: { labels: false, target: (args: Static<typeof TransitionArgs>) => jiraTarget(projectOfKey(args.issueKey)) },
  input: TransitionArgs,
  envelope: ReadEnvelope,
  toolset: 'jira.issues',
  route: (args: Args, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    return withBody({ method: 'POST', path: `${api.issuePath(args.issueKey)}/transitions` }, () => transitionBody(args, api));
  },
  // The issue's transitions (to resolve a name), the POST with the id found, then its status after the move.
  further: (args: Args, upstream?: UpstreamBinding) => {
    const api = jiraApi(upstream);
    const path = api.issuePath(args.issueKey);
    const resolved = withBody({ method: 'POST', path: `${path}/transitions` }, () => ({ ...transitionBody(args, api), transition: { id: FROM_UPSTREAM } }));
    return [{ method: 'GET', path: `${path}/transitions` }, ...(isId(args.transition) ? [] : [resolved as FurtherRoute]), { method: 'GET', path }];
  },
  handler: async (ctx, { upstream: jira }: JiraDeps) => {
    const api = jiraApi(jira);
    const { issueKey, transition } = ctx.args;
    const path = api.issuePath(issueKey);
    const listed = jsonObject<{ transitions: Transition[] }>((await jira.send(ctx, { method: 'GET', path: `${path}/transitions` }, { expect: 'json' })).body);
    ctx.progress(1, 3, `listed the transitions of ${issueKey}`);
    const available = (Array.isArray(listed.transitions) ? listed.transitions : []).filter((t) => typeof t?.id === 'string' && typeof t.name === 'string');
    const wanted = transition.trim().toLowerCase();
    const chosen = isId(transition)
      ? available.find((t) => t.id === transition)
      : (available.find((t) => t.name.toLowerCase() === wanted) ?? available.find((t) => t.to?.name?.toLowerCase() === wanted));
    if (chosen === undefined) {
      const list = available.map((t) => `"${t.name}" (id ${t.id}${t.to?.name === undefined ? '' : `, to ${t.to.name}`})`).join(', ');
      // Not invalid_arguments: the arguments are well formed; the issue's workflow is what Jira answered.
      throw new ToolError(
        'upstream_http_error',
        `${issueKey} has no transition ${JSON.stringify(transition)} from its current status. ` +
          (available.length === 0 ? 'No transition is available to this account.' : `Available: ${list}. Pass one of these names or ids.`) +
          ' Nothing was changed.',
      );
    }
    // Given by id, the route goes out as policy decided it; named, the same POST carries the id found.
    const post: UpstreamRequest = isId(transition) ? ctx.route : { ...ctx.route, body: { ...(ctx.route.body as object), transition: { id: chosen.id } } };
    await jira.send(ctx, post, { expect: 'lenient' });
    ctx.progress(2, 3, `moved ${issueKey} through "${chosen.name}"; reading its status`);
    const after = jsonObject<{ fields: { status?: { name?: string } } }>(
      (await jira.send(ctx, { method: 'GET', path, query: { fields: 'status' } }, { expect: 'json' })).body,
    );
    const status = jsonObject<{ status: { name?: string } }>(after.fields).status?.name ?? chosen.to?.name ?? null;
    return { value: { key: issueKey, url: api.issueUrl(issueKey), transition: chosen.name, status, commented: ctx.args.comment !== undefined } };
  },
});

/** The transition's POST body: the transition by id or name, and the comment when there is one. */
function transitionBody(args: Args, api: ReturnType<typeof jiraApi>): Record<string, unknown> {
  return {
    transition: isId(args.transition) ? { id: args.transition } : { name: args.transition },
    ...(args.comment === undefined ? {} : { update: { comment: [{ add: { body: api.richText(args.comment) } }] } }),
  };
}

interface Transition {
  id: string;
  name: string;
  to?: { name?: string };
}
