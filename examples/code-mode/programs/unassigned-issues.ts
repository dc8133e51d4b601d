// Which open issues of Jira project PLAT have no assignee? Group them by priority.
const jql = 'project = PLAT AND assignee IS EMPTY AND statusCategory != Done ORDER BY key ASC';

type Issue = { key: string; priority: string };
const issues: Issue[] = [];
let nextPageToken: string | null = null;
do {
  const queryParams: Record<string, string> = { jql, fields: 'priority', maxResults: '100' };
  if (nextPageToken !== null) queryParams.nextPageToken = nextPageToken;
  const page = await tools.jira_get({ path: '/rest/api/3/search/jql', queryParams, jq: '{issues: issues[*].{key: key, priority: fields.priority.name}, next: nextPageToken}' });
  const data = page.data as { issues: Issue[]; next: string | null };
  issues.push(...data.issues);
  nextPageToken = data.next;
} while (nextPageToken !== null);

const byPriority = ['Highest', 'High', 'Medium', 'Low', 'Lowest']
  .map((priority) => {
    const keys = issues.filter((issue) => issue.priority === priority).map((issue) => issue.key);
    return { priority, count: keys.length, keys };
  })
  .filter((group) => group.count > 0);
console.log(JSON.stringify({ open: issues.length, byPriority }));
