import { jiraProject, mountJiraSearch } from '../vendors/jira-project.js';
import { programSource, once, type Task } from './task.js';

export type AssigneeLoadAnswer = Array<{ assignee: string; open: number; urgent: number }>;

const JQL = 'project = PLAT AND assignee IS NOT EMPTY AND statusCategory != Done ORDER BY key ASC';
const project = once(jiraProject);

/** Open issues per assignee, and how many of them are High or Highest: most open first, ties by name. */
export function assigneeLoad(issues: ReadonlyArray<{ assignee: string; priority: string }>): AssigneeLoadAnswer {
  const load = new Map<string, { open: number; urgent: number }>();
  for (const { assignee, priority } of issues) {
    const entry = load.get(assignee) ?? { open: 0, urgent: 0 };
    load.set(assignee, { open: entry.open + 1, urgent: entry.urgent + (priority === 'High' || priority === 'Highest' ? 1 : 0) });
  }
  return [...load].map(([assignee, l]) => ({ assignee, ...l })).sort((a, b) => b.open - a.open || a.assignee.localeCompare(b.assignee));
}

/** Task 6: the open issues of Jira project PLAT per assignee, and how many of them are urgent. */
export const assigneeLoadTask: Task<AssigneeLoadAnswer> = {
  id: 'assignee-load',
  question: 'How many open issues of Jira project PLAT does each assignee have, and how many of them are High or Highest?',
  search: { query: 'jira get' },
  mount: (mock) => mountJiraSearch(mock, project()),

  async direct(agent) {
    const issues: Array<{ assignee: string; priority: string }> = [];
    let token: string | null = null;
    do {
      const queryParams: Record<string, string> = {
        jql: JQL,
        fields: 'assignee,priority',
        maxResults: '100',
        ...(token === null ? {} : { nextPageToken: token }),
      };
      const page = (await agent.call('jira_get', {
        path: '/rest/api/3/search/jql',
        queryParams,
        jq: '{issues: issues[*].{assignee: fields.assignee.displayName, priority: fields.priority.name}, next: nextPageToken}',
      })) as { issues: typeof issues; next: string | null };
      issues.push(...page.issues);
      token = page.next;
    } while (token !== null);
    return assigneeLoad(issues);
  },

  program: () => programSource('assignee-load'),

  expected() {
    const open = project().filter((i) => i.fields.assignee !== null && (i.fields.status as { statusCategory: { key: string } }).statusCategory.key !== 'done');
    return assigneeLoad(
      open.map((i) => ({ assignee: (i.fields.assignee as { displayName: string }).displayName, priority: (i.fields.priority as { name: string }).name })),
    );
  },
};
