import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { circleciFixture } from '../../fixtures/circleci/circleci-api.js';
import { FAILED_TEST_OUTPUT, serveJobLogs } from '../../fixtures/circleci/circleci-v1.js';
import { annotationsReply, checkRun, checkRunsReply, combinedStatusReply, failedJob, failedJobLog, REPO } from '../../fixtures/ci/ci-fixtures.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

// The vendors of the ci tests, as loopback mocks serving what each documents: a red commit on each.

export const GITHUB_TOKEN = 'ghp_ciReportToken0123456789abcdef';
export const CIRCLECI_TOKEN = 'CCIPAT_ciReport_0123456789abcdef';
export const BITBUCKET_TOKEN = 'bb_ciReportAccessToken_0123456789';
export const JOB_ID = 31933201456;
export const CIRCLECI_JOB_URL =
  'https://circleci.com/gh/CircleCI-Public/api-preview-docs/1262?utm_campaign=vcs-integration-link&utm_medium=referral&utm_source=github-build-link';
export const CIRCLECI_PROJECT = '/api/v2/project/gh/CircleCI-Public/api-preview-docs';

/** The kernel of the ci plugin alone, its three vendors on loopback mocks, and a storage host for logs. */
export function useCiKernel(extra: Record<string, string> = {}): ReturnType<typeof useVendorKernel> {
  return useVendorKernel({
    plugins: ['ci'],
    otherMocks: 3,
    env: (github, [circleci, bitbucket, storage]) => ({
      GITHUB_API_URL: github,
      GITHUB_TOKEN,
      CIRCLECI_BASE_URL: circleci!,
      CIRCLECI_TOKEN,
      BITBUCKET_BASE_URL: bitbucket!,
      BITBUCKET_ACCESS_TOKEN: BITBUCKET_TOKEN,
      MCP_EGRESS_ALLOW: new URL(storage!).host,
      // The report's mechanics; its label (untrusted, fenced whole): test/plugins/provenance/.
      MCP_FENCE: 'false',
      ...extra,
    }),
  });
}

/** GitHub: a commit whose Actions job failed (the log on the blob host), and whose other checks passed. */
export function serveActionsFailure(
  github: MockUpstream,
  storage: MockUpstream,
  runs = [
    checkRun({ id: 100, name: 'lint', app: 'github-actions', conclusion: 'success' }),
    checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: 'failure', annotations: 2 }),
  ],
): void {
  github.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, checkRunsReply(runs));
  github.on('GET', `/repos/${REPO}/commits/:ref/status`, combinedStatusReply([]));
  github.on('GET', `/repos/${REPO}/actions/jobs/${JOB_ID}`, { body: failedJob(JOB_ID, 'test (20.x)') });
  github.on('GET', `/repos/${REPO}/actions/jobs/${JOB_ID}/logs`, {
    status: 302,
    headers: { location: `${storage.url}/actions-results/${JOB_ID}/logs/job.txt?sv=2023-11-03&se=2030-01-01T00%3A00%3A00Z&sig=c2lnbmF0dXJl` },
  });
  storage.on('GET', `/actions-results/${JOB_ID}/logs/job.txt`, { headers: { 'content-type': 'text/plain' }, body: failedJobLog() });
  github.on('GET', `/repos/${REPO}/check-runs/${JOB_ID}/annotations`, annotationsReply());
}

/** CircleCI: job 1262 failed in "Run tests", its tests and Insights as CircleCI serves them. */
export function serveCircleciFailure(circleci: MockUpstream, storage: MockUpstream, flakyBody: unknown): void {
  circleci.on('GET', `${CIRCLECI_PROJECT}/job/1262`, {
    body: { ...circleciFixture<Record<string, unknown>>('job-details.json'), status: 'failed', stopped_at: '2026-10-07T16:24:02.118Z' },
  });
  serveJobLogs(circleci, storage, { 103: FAILED_TEST_OUTPUT });
  circleci.on('GET', `${CIRCLECI_PROJECT}/1262/tests`, { body: { ...circleciFixture<Record<string, unknown>>('job-tests.json'), next_page_token: null } });
  circleci.on('GET', '/api/v2/insights/gh/CircleCI-Public/api-preview-docs/flaky-tests', { body: flakyBody });
}

/** Insights' answer in the snake_case shape CircleCI's own server parses, naming the test that failed. */
export const FLAKY_SNAKE = {
  flaky_tests: [
    {
      test_name: 'accepts 51 items (was a 502 behind the gateway)',
      classname: 'checkout with a large cart',
      job_name: 'test',
      times_flaked: 4,
      workflow_name: 'build-and-test',
      file: 'test/checkout.large-cart.test.ts',
    },
  ],
  total_flaky_tests: 1,
};

/** GitHub: the commit's status from CircleCI's classic integration, naming job 1262. */
export function serveCircleciStatus(github: MockUpstream): void {
  github.on(
    'GET',
    `/repos/${REPO}/commits/:ref/status`,
    combinedStatusReply([{ context: 'ci/circleci: test', state: 'failure', target_url: CIRCLECI_JOB_URL, description: 'Your tests failed on CircleCI' }]),
  );
}
