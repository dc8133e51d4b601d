import { jiraProject, mountJiraSearch, PRIORITIES, unassignedByPriority } from '../vendors/jira-project.js';
import { programSource, once, type Task } from './task.js';

export interface UnassignedAnswer {
  open: number;
  byPriority: Array<{ priority: string; count: number; keys: string[] }>;
}

const JQL = 'project = PLAT AND assignee IS EMPTY AND statusCategory != Done ORDER BY key ASC';
const project = once(jiraProject);

/** Task 2: the open issues of a Jira project with no assignee, grouped by priority (2,000 issues). */
export const unassignedIssuesTask: Task<UnassignedAnswer> = {
  id: 'unassigned-issues',
  question: 'Which open issues of Jira project PLAT have no assignee? Group them by priority.',
  search: { query: 'jira get' },
  mount: (mock) => mountJiraSearch(mock, project()),

  async direct(agent) {
    // JQL does the filtering; fields and jq keep each page to key and priority; pages follow nextPageToken.
    const issues: Array<{ key: string; priority: string }> = [];
    let token: string | null = null;
    do {
      const queryParams: Record<string, string> = { jql: JQL, fields: 'priority', maxResults: '100', ...(token === null ? {} : { nextPageToken: token }) };
      const page = (await agent.call('jira_get', { path: '/rest/api/3/search/jql', queryParams, jq: '{issues: issues[*].{key: key, priority: fields.priority.name}, next: nextPageToken}' })) as {
        issues: typeof issues;
        next: string | null;
      };
      issues.push(...page.issues);
      token = page.next;
    } while (token !== null);
    const byPriority = PRIORITIES.map((priority) => {
      const keys = issues.filter((issue) => issue.priority === priority).map((issue) => issue.key);
      return { priority: String(priority), count: keys.length, keys };
    }).filter((group) => group.count > 0);
    return { open: issues.length, byPriority };
  },

  program: () => programSource('unassigned-issues'),

  expected() {
    const byPriority = unassignedByPriority(project());
    return { open: byPriority.reduce((sum, group) => sum + group.count, 0), byPriority };
  },
};
