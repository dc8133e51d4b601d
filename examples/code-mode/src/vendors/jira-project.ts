import type { MockReply, MockUpstream, RecordedRequest } from 'mcp-devtools/build/server/testing/mock-upstream.js';
import { jsonReply, payload } from 'mcp-devtools/build/test/fixtures/atlassian/corpus-kit.js';
import { SeededRandom } from './seeded-random.js';
import { jqlFilter, JqlError } from './jql-subset.js';

export const JIRA_PROJECT = 'PLAT';
export type Issue = { id: string; key: string; self: string; expand: string; fields: Record<string, unknown> };

/** Jira's default priority scheme, highest first: the order both ways of task 2 print groups in. */
export const PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'] as const;

const STATUSES: ReadonlyArray<readonly [Record<string, unknown>, number]> = [
  [{ name: 'To Do', id: '10001', statusCategory: { id: 2, key: 'new', colorName: 'blue-gray', name: 'To Do' } }, 33],
  [{ name: 'In Progress', id: '3', statusCategory: { id: 4, key: 'indeterminate', colorName: 'yellow', name: 'In Progress' } }, 14],
  [{ name: 'In Review', id: '10003', statusCategory: { id: 4, key: 'indeterminate', colorName: 'yellow', name: 'In Progress' } }, 7],
  [{ name: 'Done', id: '10002', statusCategory: { id: 3, key: 'done', colorName: 'green', name: 'Done' } }, 46],
];
const PEOPLE = ['Mia Krystof', 'Jonas Ørsted', 'Ana Souza', 'Priya Raman', 'Kwame Mensah', 'Li Wei'];
const SUBJECTS = ['Checkout', 'Export', 'Search', 'Billing', 'Login', 'Webhooks', 'Cart', 'Invoices', 'Gateway', 'Mobile app'];
const PROBLEMS = ['times out under load', 'returns 502 for large tenants', 'loses the locale', 'double-counts refunds', 'needs rate limiting', 'logs secrets at debug level', 'ignores the retry header', 'renders „Umlaute“ wrongly'];

/**
 * Project PLAT with 2,000 issues, each Jira's full example issue (rich-text description, comments, links,
 * custom fields) with its own key, summary, status, priority and assignee: about a quarter unassigned, about
 * half still open.
 */
export function jiraProject(): Issue[] {
  const random = new SeededRandom(0x7a11);
  const template = JSON.parse(payload('jira/issue.json')) as Issue;
  return Array.from({ length: 2000 }, (_, i) => {
    const number = i + 1;
    const id = String(10000 + number);
    const priority = random.weighted<string>([['Highest', 5], ['High', 18], ['Medium', 50], ['Low', 20], ['Lowest', 7]]);
    const person = random.chance(0.27) ? null : random.pick(PEOPLE);
    const day = new Date(Date.UTC(2024, 0, 1) + number * 4.3 * 3_600_000).toISOString().replace('Z', '+0000');
    const issue = structuredClone(template);
    Object.assign(issue, { id, key: `${JIRA_PROJECT}-${number}`, self: `https://acme.atlassian.net/rest/api/3/issue/${id}` });
    Object.assign(issue.fields, {
      summary: `${random.pick(SUBJECTS)} ${random.pick(PROBLEMS)} (#${number})`,
      status: random.weighted(STATUSES),
      priority: { self: `https://acme.atlassian.net/rest/api/3/priority/${PRIORITIES.indexOf(priority as never) + 1}`, name: priority, id: String(PRIORITIES.indexOf(priority as never) + 1) },
      assignee: person === null ? null : { accountId: `5b10a2844c2016570${String(PEOPLE.indexOf(person)).padStart(7, '0')}`, displayName: person, active: true, timeZone: 'Europe/Prague', accountType: 'atlassian' },
      created: day,
      updated: day,
    });
    return issue;
  });
}

/**
 * GET /rest/api/3/search/jql as Jira Cloud serves it: the JQL (a subset, see jql-subset.ts; anything else is
 * Jira's 400), `fields` (without it, ids only), `maxResults` (default 50, at most 100) and continuation with
 * `nextPageToken` until `isLast`.
 */
export function mountJiraSearch(mock: MockUpstream, issues: readonly Issue[]): void {
  mock.on('GET', '/rest/api/3/search/jql', (request) => searchReply(request, issues));
}

function searchReply(request: RecordedRequest, issues: readonly Issue[]): MockReply {
  const jql = request.query.get('jql') ?? '';
  let matching: Issue[];
  try {
    matching = jqlFilter(jql, issues);
  } catch (error) {
    if (!(error instanceof JqlError)) throw error;
    return jsonReply(JSON.stringify({ errorMessages: [`Error in the JQL Query: ${error.message}`], errors: {}, warningMessages: [] }), 400);
  }
  const token = request.query.get('nextPageToken');
  const start = token === null ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8').split('|')[1]);
  if (!Number.isInteger(start) || start < 0) return jsonReply(JSON.stringify({ errorMessages: ['The nextPageToken is invalid or expired.'], errors: {} }), 400);
  const size = Math.min(100, Math.max(1, Number(request.query.get('maxResults') ?? 50)));
  const page = matching.slice(start, start + size).map((issue) => withFields(issue, request.query.get('fields')));
  const isLast = start + size >= matching.length;
  const body: Record<string, unknown> = { issues: page, isLast };
  if (!isLast) body.nextPageToken = Buffer.from(`${jql}|${start + size}`, 'utf8').toString('base64url');
  return jsonReply(JSON.stringify(body));
}

function withFields(issue: Issue, fields: string | null): Record<string, unknown> {
  if (fields === null) return { id: issue.id };
  const names = fields.split(',').map((f) => f.trim());
  const all = names.includes('*all') || names.includes('*navigable');
  const kept = all ? issue.fields : Object.fromEntries(Object.entries(issue.fields).filter(([name]) => names.includes(name)));
  return { expand: issue.expand, id: issue.id, self: issue.self, key: issue.key, fields: kept };
}

/** The truth for task 2: open (not done) unassigned issues, keys by priority, highest first, empty groups left out. */
export function unassignedByPriority(issues: readonly Issue[]): Array<{ priority: string; count: number; keys: string[] }> {
  const open = issues.filter((i) => i.fields.assignee === null && (i.fields.status as { statusCategory: { key: string } }).statusCategory.key !== 'done');
  return PRIORITIES.map((priority) => {
    const keys = open.filter((i) => (i.fields.priority as { name: string }).name === priority).map((i) => i.key);
    return { priority, count: keys.length, keys };
  }).filter((group) => group.count > 0);
}
