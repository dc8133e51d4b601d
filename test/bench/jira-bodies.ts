import { jiraSearchPage } from '../fixtures/atlassian/generated.js';
import type { MockUpstream } from '../../server/testing/mock-upstream.js';

/** The Jira site settings both servers are given (the reference reads the same names). */
export const JIRA_CREDENTIALS = { ATLASSIAN_SITE_NAME: 'acme', ATLASSIAN_USER_EMAIL: 'bench@acme.example', ATLASSIAN_API_TOKEN: 'bench-api-token-0451' };

export const SEARCH_PATH = '/rest/api/3/search/jql';

/** The projection an agent typically asks for on a search page: key, summary and status of each issue. */
export const TYPICAL_JIRA_JQ = 'issues[*].{key: key, summary: fields.summary, status: fields.status.name}';

/**
 * A real-shaped Jira search page (the fixture's issues, renumbered) of about `bytes` bytes of JSON (the issue
 * count whose page size is nearest): the same response for every server measured.
 */
export function jiraSearchBody(bytes: number): Buffer {
  const size = (count: number): number => Buffer.byteLength(jiraSearchPage(count));
  // The fixture's three issues differ in size: estimate from a whole cycle, then step to the nearest count.
  const perIssue = (size(4) - size(1)) / 3;
  let count = Math.max(1, Math.round((bytes - size(1)) / perIssue) + 1);
  while (count > 1 && Math.abs(size(count - 1) - bytes) < Math.abs(size(count) - bytes)) count--;
  while (Math.abs(size(count + 1) - bytes) < Math.abs(size(count) - bytes)) count++;
  return Buffer.from(jiraSearchPage(count), 'utf8');
}

/** Serves `body` as Jira's answer to every GET of the search path; the mock stops recording what it already answered. */
export function serveJiraSearch(mock: MockUpstream, body: Buffer): void {
  mock.reset();
  mock.on('GET', SEARCH_PATH, () => {
    mock.requests.length = 0;
    return { status: 200, headers: { 'content-type': 'application/json;charset=UTF-8' }, body };
  });
}
