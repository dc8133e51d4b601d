import { MockUpstream, type RecordedRequest } from '../../server/testing/mock-upstream.js';
import { pipelines, tokenPagedReply, circleciFixture } from '../fixtures/circleci/circleci-api.js';
import { pagedListReply, workflowRuns, type PagedListOptions } from '../fixtures/github/github-api.js';
import { jsonReply, noContent, payload } from '../fixtures/atlassian/corpus-kit.js';

/**
 * GitHub, CircleCI and Jira as the replicas' vendors: each a loopback server speaking its API's wire format,
 * fed from the real payload fixtures, counting every request a replica sends.
 *
 * - GitHub: 61 workflow runs, 30 a page (GitHub's default), Link headers. One page is about 390 KB, over the
 *   default structured bound (256 KiB), so a plain `github_list_workflow_runs` is an oversized result.
 * - CircleCI: the pipelines of any project (with an ETag, no Cache-Control, as CircleCI answers), and single
 *   pipelines with `Cache-Control: max-age=1`, the short-lived entries.
 * - Jira: issues to read and to delete.
 */
export interface VendorUpstreams {
  github: MockUpstream;
  circleci: MockUpstream;
  jira: MockUpstream;
  urls: { github: string; circleci: string; jira: string };
  /** The body GitHub sent for a recorded runs request, as the structured value's `data` must hold it. */
  runsPage(request: RecordedRequest): unknown;
  /** How many requests a vendor got for `method path`. */
  count(vendor: 'github' | 'circleci' | 'jira', method: string, path: string): number;
  close(): Promise<void>;
}

const RUNS: PagedListOptions = { key: 'workflow_runs', items: workflowRuns(61), linkPath: '/repositories/1296269/actions/runs' };
export const SHORT_LIVED_SECONDS = 1;

export async function startVendorUpstreams(): Promise<VendorUpstreams> {
  const [github, circleci, jira] = await Promise.all([MockUpstream.start(), MockUpstream.start(), MockUpstream.start()]);
  github.on('GET', '/repos/:owner/:repo/actions/runs', (request) => pagedListReply(request, RUNS));

  const projectPipelines = pipelines(45);
  circleci.on('GET', '/api/v2/project/gh/:org/:repo/schedule', (request) => ({
    ...tokenPagedReply(request, projectPipelines),
    headers: { etag: `W/"${request.params.repo}-45"` },
  }));
  circleci.on('GET', '/api/v2/pipeline/:id', (request) => ({
    headers: { 'cache-control': `private, max-age=${SHORT_LIVED_SECONDS}` },
    body: { ...circleciFixture<Record<string, unknown>>('pipeline.json'), id: request.params.id },
  }));

  const issue = payload('jira/issue.json');
  jira.on('GET', '/rest/api/3/issue/:key', jsonReply(issue));
  // Later routes win: this one key is missing.
  jira.on('GET', '/rest/api/3/issue/NOPE-1', jsonReply(payload('jira/issue-not-found.json'), 404));
  jira.on('DELETE', '/rest/api/3/issue/:key', noContent());

  const mocks = { github, circleci, jira };
  return {
    ...mocks,
    urls: { github: github.url, circleci: circleci.url, jira: jira.url },
    runsPage: (request) => pagedListReply(request, RUNS).body,
    count: (vendor, method, path) => mocks[vendor].requests.filter((r) => r.method === method && r.path === path).length,
    close: async () => {
      await Promise.all([github.close(), circleci.close(), jira.close()]);
    },
  };
}
