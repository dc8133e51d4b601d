// How many open issues of Jira project PLAT does each assignee have, and how many of them are High or Highest?
const jql = 'project = PLAT AND assignee IS NOT EMPTY AND statusCategory != Done ORDER BY key ASC';
type Issue = { assignee: string; priority: string };
const issues: Issue[] = [];
let nextPageToken: string | null = null;
do {
  const queryParams: Record<string, string> = { jql, fields: 'assignee,priority', maxResults: '100' };
  if (nextPageToken !== null) queryParams.nextPageToken = nextPageToken;
  const page = await tools.jira_get({
    path: '/rest/api/3/search/jql',
    queryParams,
    jq: '{issues: issues[*].{assignee: fields.assignee.displayName, priority: fields.priority.name}, next: nextPageToken}',
  });
  const data = page.data as { issues: Issue[]; next: string | null };
  issues.push(...data.issues);
  nextPageToken = data.next;
} while (nextPageToken !== null);

const load = new Map<string, { open: number; urgent: number }>();
for (const { assignee, priority } of issues) {
  const entry = load.get(assignee) ?? { open: 0, urgent: 0 };
  load.set(assignee, { open: entry.open + 1, urgent: entry.urgent + (priority === 'High' || priority === 'Highest' ? 1 : 0) });
}
console.log(JSON.stringify([...load].map(([assignee, l]) => ({ assignee, ...l })).sort((a, b) => b.open - a.open || a.assignee.localeCompare(b.assignee))));
