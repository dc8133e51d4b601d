/** A JQL the mock does not understand; Jira answers such a query with 400 and this message. */
export class JqlError extends Error {}

interface JqlIssue {
  key: string;
  fields: Record<string, unknown>;
}

type Test = (issue: JqlIssue) => boolean;

const FIELD_VALUES: Record<string, (issue: JqlIssue) => string | null> = {
  project: (i) => i.key.split('-')[0]!,
  status: (i) => (i.fields.status as { name: string }).name,
  statuscategory: (i) => (i.fields.status as { statusCategory: { name: string; key: string } }).statusCategory.key === 'done' ? 'Done' : (i.fields.status as { statusCategory: { name: string } }).statusCategory.name,
  priority: (i) => (i.fields.priority as { name: string } | null)?.name ?? null,
  assignee: (i) => (i.fields.assignee as { displayName: string } | null)?.displayName ?? null,
};

/**
 * The part of JQL an agent uses for these searches, evaluated as Jira does: clauses joined by AND, each
 * `field = value`, `field != value`, `field IS [NOT] EMPTY` over project, status, statusCategory, priority and
 * assignee (values compared case-insensitively, quotes optional), then an optional `ORDER BY key|created|updated
 * [ASC|DESC]`. Without ORDER BY, issues come in key order.
 */
export function jqlFilter<T extends JqlIssue>(jql: string, issues: readonly T[]): T[] {
  const [where = '', order] = jql.split(/\s+ORDER\s+BY\s+/i);
  const tests = where.trim() === '' ? [] : where.split(/\s+AND\s+/i).map(clause);
  const found = issues.filter((issue) => tests.every((test) => test(issue)));
  return order === undefined ? found : sorted(found, order);
}

function clause(text: string): Test {
  const empty = /^(\w+)\s+IS\s+(NOT\s+)?(EMPTY|NULL)$/i.exec(text.trim());
  if (empty !== null) {
    const value = valueOf(empty[1]!, text);
    const negated = empty[2] !== undefined;
    return (issue) => (value(issue) === null) !== negated;
  }
  const compare = /^(\w+)\s*(!=|=)\s*(?:"([^"]*)"|'([^']*)'|(\S+))$/.exec(text.trim());
  if (compare !== null) {
    const value = valueOf(compare[1]!, text);
    const wanted = (compare[3] ?? compare[4] ?? compare[5]!).toLowerCase();
    const equal = compare[2] === '=';
    return (issue) => ((value(issue) ?? '').toLowerCase() === wanted) === equal;
  }
  throw new JqlError(`The clause '${text.trim()}' is not valid JQL here.`);
}

function valueOf(field: string, text: string): (issue: JqlIssue) => string | null {
  const value = FIELD_VALUES[field.toLowerCase()];
  if (value === undefined) throw new JqlError(`Field '${field}' does not exist or you do not have permission to view it (in '${text.trim()}').`);
  return value;
}

function sorted<T extends JqlIssue>(issues: T[], order: string): T[] {
  const match = /^(key|created|updated)(?:\s+(ASC|DESC))?$/i.exec(order.trim());
  if (match === null) throw new JqlError(`Not able to sort using field '${order.trim()}'.`);
  const field = match[1]!.toLowerCase();
  const sign = match[2]?.toUpperCase() === 'DESC' ? -1 : 1;
  const keyOf = (issue: T): string | number => (field === 'key' ? Number(issue.key.split('-')[1]) : String(issue.fields[field]));
  return [...issues].sort((a, b) => (keyOf(a) < keyOf(b) ? -sign : keyOf(a) > keyOf(b) ? sign : 0));
}
