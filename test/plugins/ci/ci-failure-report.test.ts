import { expect } from 'chai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { bitbucketPage } from '../../fixtures/bitbucket/bitbucket-api.js';
import { circleciFixture } from '../../fixtures/circleci/circleci-api.js';
import { FAILED_TEST_OUTPUT, serveJobLogs } from '../../fixtures/circleci/circleci-v1.js';
import {
  bitbucketPipeline,
  bitbucketStatusesReply,
  bitbucketStepLog,
  bitbucketSteps,
  checkRun,
  checkRunsReply,
  REPO,
  SHA,
  testCaseReasonsReply,
  testCasesReply,
} from '../../fixtures/ci/ci-fixtures.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import {
  BITBUCKET_TOKEN,
  CIRCLECI_TOKEN,
  FLAKY_SNAKE,
  GITHUB_TOKEN,
  JOB_ID,
  serveActionsFailure,
  serveCircleciFailure,
  serveCircleciStatus,
  useCiKernel,
} from './ci-mocks.js';

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('ci_failure_report (GitHub, CircleCI and Bitbucket mocks on loopback)', () => {
  const t = useCiKernel();
  const [circleci, bitbucket, storage] = [0, 1, 2].map((i) => (): MockUpstream => t.others[i]!);

  describe('a GitHub Actions failure', () => {
    it("answers the failed job's step, the jest failure from the middle of the log, and its annotation, without timestamps", async () => {
      serveActionsFailure(t.mock, storage());
      const result = await t.kernel.call('ci_failure_report', { repo: REPO, ref: 'main' });
      const text = textOf(result);
      expect(result.isError, text).to.equal(undefined);
      expect(text).to.match(/^1 failed check on acme\/storefront at 7d9c1e2a4b6f \(2 checks read on GitHub; failed on GitHub Actions\)\./);
      expect(text).to.contain(`## GitHub Actions: test (20.x) (failure) https://github.com/${REPO}/actions/runs/11840001/job/${JOB_ID}`);
      expect(text).to.contain('Failed step: Run npm test -- --ci');
      expect(text).to.contain('● cart total › applies the member discount before tax');
      expect(text).to.contain('Expected: 90.72');
      expect(text).to.contain('Received: 97.2');
      expect(text).to.contain('- src/cart/cart-total.test.ts:43: cart total › applies the member discount before tax: expect(received)');
      // The runner's own exit-code annotation says nothing the model can act on.
      expect(text).not.to.contain('- .github:1');
      expect(text).not.to.match(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      expect(text).not.to.contain('Widget00');
      expect(text).to.match(/The whole log \(\d+ bytes, text\/plain\) is artifact [0-9a-f]{32}: read it with artifact_read/);
    });

    it('sends the token to GitHub only, follows the log redirect without it, and asks for every run of each check', async () => {
      serveActionsFailure(t.mock, storage());
      await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA });
      const checks = t.mock.requests.find((r) => r.path.endsWith('/check-runs'))!;
      expect(checks.path).to.equal(`/repos/${REPO}/commits/${SHA}/check-runs`);
      expect(checks.query.get('filter')).to.equal('all');
      expect(checks.headers.authorization).to.equal(`Bearer ${GITHUB_TOKEN}`);
      const blob = storage().requests.find((r) => r.path.includes('/actions-results/'))!;
      expect(blob.headers.authorization).to.equal(undefined);
      expect(blob.query.get('sig')).to.equal('c2lnbmF0dXJl');
      expect(circleci().requests).to.have.length(0);
      expect(bitbucket().requests).to.have.length(0);
    });

    it('reads the head commit of a pull request first', async () => {
      serveActionsFailure(t.mock, storage());
      t.mock.on('GET', `/repos/${REPO}/pulls/42`, { body: { number: 42, head: { ref: 'fix/discount', sha: SHA } } });
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: '#42' }));
      expect(t.mock.requests.map((r) => r.path)).to.include(`/repos/${REPO}/commits/${SHA}/check-runs`);
      expect(text).to.contain('Failed step: Run npm test -- --ci');
    });

    it("labels the report by whose code its builds ran: a fork's pull request untrusted, the repository's own branch trusted, a bare commit untrusted", async () => {
      const labelOf = (result: Awaited<ReturnType<typeof t.kernel.call>>): Record<string, unknown> =>
        (result._meta!['mcp-devtools/provenance'] as { labels: Array<Record<string, unknown>> }).labels[0]!;
      const pull = (number: number, head: string): Record<string, unknown> => ({
        number,
        head: { ref: 'fix/discount', sha: SHA, repo: { full_name: head } },
        base: { ref: 'main', repo: { full_name: REPO, private: false } },
      });
      serveActionsFailure(t.mock, storage());
      t.mock.on('GET', `/repos/${REPO}/pulls/43`, { body: pull(43, 'mallory/storefront') });
      t.mock.on('GET', `/repos/${REPO}/pulls/44`, { body: pull(44, REPO) });
      expect(labelOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: '#43' }))).to.include({
        integrity: 'untrusted',
        confidentiality: 'public',
        why: 'quotes builds of the fork mallory/storefront; repository public',
      });
      expect(labelOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: '#44' }))).to.include({ integrity: 'trusted', confidentiality: 'public' });
      expect(labelOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }))).to.include({
        integrity: 'untrusted',
        confidentiality: 'private',
        assumed: true,
      });
    });

    it('marks the job flaky when it passed on another run of the same commit', async () => {
      serveActionsFailure(t.mock, storage(), [
        checkRun({ id: JOB_ID - 900, name: 'test (20.x)', app: 'github-actions', conclusion: 'success' }),
        checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: 'failure', annotations: 2 }),
      ]);
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
      expect(text).to.contain('Flaky: this job passed on another run of the same commit.');
    });

    it('says there is nothing failed when the latest run of each check passed', async () => {
      serveActionsFailure(t.mock, storage(), [
        checkRun({ id: JOB_ID, name: 'test (20.x)', app: 'github-actions', conclusion: 'failure' }),
        checkRun({ id: JOB_ID + 900, name: 'test (20.x)', app: 'github-actions', conclusion: 'success' }),
      ]);
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
      expect(text).to.match(/^No failed checks on acme\/storefront at 7d9c1e2a4b6f/);
      expect(t.mock.requests.some((r) => r.path.includes('/actions/jobs/'))).to.equal(false);
    });

    it('keeps a typical single-failure report within 2,000 o200k tokens', async () => {
      serveActionsFailure(t.mock, storage());
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
      expect(countTokens(text)).to.be.at.most(2000);
    });
  });

  describe('a CircleCI failure named by a commit status', () => {
    it("reads the job's failed step output, its failed tests, and which of them Insights knows as flaky", async () => {
      t.mock.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, checkRunsReply([]));
      serveCircleciStatus(t.mock);
      serveCircleciFailure(circleci(), storage(), FLAKY_SNAKE);
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
      expect(text).to.contain('## CircleCI: test (failed) https://app.circleci.com/pipelines/github/CircleCI-Public/api-preview-docs/25/workflows/');
      expect(text).to.contain('Failed step: Run tests');
      expect(text).to.contain(
        '- checkout with a large cart › accepts 51 items (was a 502 behind the gateway) (test/checkout.large-cart.test.ts) [known flaky: flaked 4 times (CircleCI Insights)]: AssertionError: expected 502 to equal 200',
      );
      expect(text).to.contain('AssertionError: expected 2 to equal 1');
      expect(text).to.contain('1) ranks recent documents first');
      expect(text).not.to.contain('\u001b[');
      expect(circleci().requests.every((r) => r.headers['circle-token'] === CIRCLECI_TOKEN)).to.equal(true);
      expect(storage().requests.every((r) => r.headers['circle-token'] === undefined)).to.equal(true);
    });

    it("reads Insights' documented shape too, and marks no test Insights does not name", async () => {
      t.mock.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, checkRunsReply([]));
      serveCircleciStatus(t.mock);
      const documented = circleciFixture<{ 'flaky-tests': Array<Record<string, unknown>> }>('flaky-tests.json');
      documented['flaky-tests'][0]!['test-name'] = 'accepts 51 items (was a 502 behind the gateway)';
      documented['flaky-tests'][0]!.classname = 'checkout with a large cart';
      serveCircleciFailure(circleci(), storage(), documented);
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
      expect(text).to.contain('[known flaky: flaked 3 times (CircleCI Insights)]');
      serveCircleciFailure(circleci(), storage(), circleciFixture('flaky-tests.json'));
      expect(textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }))).not.to.contain('known flaky');
    });
  });

  describe('a Bitbucket Pipelines failure', () => {
    function serveBitbucketFailure(circleciJobUrl?: string): void {
      const repo = `/2.0/repositories/${REPO}`;
      bitbucket().on('GET', `${repo}/pipelines`, (request) =>
        bitbucketPage(request, [bitbucketPipeline(1289, 'SUCCESSFUL', '0f0e0d0c0b0a09080706050403020100ffeeddcc'), bitbucketPipeline(1288, 'FAILED')]),
      );
      bitbucket().on('GET', `${repo}/commit/${SHA}/statuses`, bitbucketStatusesReply(circleciJobUrl));
      bitbucket().on('GET', `${repo}/pipelines/:pipeline/steps`, { body: bitbucketSteps() });
      bitbucket().on('GET', `${repo}/pipelines/:pipeline/steps/:step/log`, {
        headers: { 'content-type': 'application/octet-stream' },
        body: bitbucketStepLog(),
      });
      bitbucket().on('GET', `${repo}/pipelines/:pipeline/steps/:step/test_reports/test_cases`, testCasesReply());
      bitbucket().on('GET', `${repo}/pipelines/:pipeline/steps/:step/test_reports/test_cases/:case/test_case_reasons`, testCaseReasonsReply());
    }

    it("answers the failed step of the commit's pipeline, its failed test with the reason, and the mocha failure from its log", async () => {
      serveBitbucketFailure();
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA, host: 'bitbucket' }));
      expect(text).to.match(/^1 failed check on acme\/storefront at 7d9c1e2a4b6f/);
      expect(text).to.contain('## Bitbucket Pipelines: pipeline #1288 (FAILED)');
      expect(text).to.contain('Failed step: Test');
      expect(text).to.contain('- checkout › accepts 51 items (was a 502 behind the gateway): AssertionError: expected 502 to equal 200');
      expect(text).to.contain('1) checkout');
      expect(text).not.to.contain('accepts 50 items:');
      const steps = bitbucket().requests.find((r) => r.path.endsWith('/steps'))!;
      expect(steps.path).to.equal(`/2.0/repositories/${REPO}/pipelines/%7B4d2e9a71-0c3b-4f5e-8a6d-000000000508%7D/steps`);
      expect(steps.headers.authorization).to.equal(`Bearer ${BITBUCKET_TOKEN}`);
      expect(t.mock.requests).to.have.length(0);
    });

    it('finds the failures of a commit on two vendors at once: its pipeline and the CircleCI job its status names', async () => {
      serveBitbucketFailure(
        'https://app.circleci.com/pipelines/bitbucket/CircleCI-Public/api-preview-docs/25/workflows/fda08377-fe7e-46b1-8992-3a7aaecac9c3/jobs/1262',
      );
      circleci().on('GET', '/api/v2/project/bb/CircleCI-Public/api-preview-docs/job/1262', {
        body: { ...circleciFixture<Record<string, unknown>>('job-details.json'), status: 'failed' },
      });
      circleci().on('GET', '/api/v1.1/project/bitbucket/CircleCI-Public/api-preview-docs/1262', {
        body: JSON.parse(JSON.stringify(circleciFixture('job-detail-v1.json')).replaceAll('{{OUTPUT_HOST}}', storage().url)),
      });
      serveJobLogs(circleci(), storage(), { 103: FAILED_TEST_OUTPUT });
      circleci().on('GET', '/api/v2/project/bb/CircleCI-Public/api-preview-docs/1262/tests', {
        body: { ...circleciFixture<Record<string, unknown>>('job-tests.json'), next_page_token: null },
      });
      circleci().on('GET', '/api/v2/insights/bb/CircleCI-Public/api-preview-docs/flaky-tests', { body: { flaky_tests: [], total_flaky_tests: 0 } });
      const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA, host: 'bitbucket' }));
      expect(text).to.match(/^2 failed checks on acme\/storefront at 7d9c1e2a4b6f \(\d+ checks read on Bitbucket; failed on Bitbucket Pipelines, CircleCI\)/);
      expect(text).to.contain('## Bitbucket Pipelines: pipeline #1288 (FAILED)');
      expect(text).to.contain('## CircleCI: test (failed)');
      expect(text).to.contain('AssertionError: expected 2 to equal 1');
      expect(text).to.contain('AssertionError: expected 502 to equal 200');
    });
  });

  it('finds the failures of a GitHub commit on two vendors at once: an Actions job and a CircleCI job', async () => {
    serveActionsFailure(t.mock, storage());
    serveCircleciStatus(t.mock);
    serveCircleciFailure(circleci(), storage(), FLAKY_SNAKE);
    const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
    expect(text).to.match(/^2 failed checks on acme\/storefront at 7d9c1e2a4b6f \(3 checks read on GitHub; failed on GitHub Actions, CircleCI\)/);
    expect(text).to.contain('● cart total › applies the member discount before tax');
    expect(text).to.contain('AssertionError: expected 2 to equal 1');
    expect(countTokens(text)).to.be.at.most(4000);
  });

  it('refuses a call that names no commit, before any request', async () => {
    const result = await t.kernel.call('ci_failure_report', { repo: REPO });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('ref');
    expect(t.mock.requests).to.have.length(0);
  });
});

describe('ci_failure_report without CircleCI credentials', () => {
  const t = useVendorKernel({
    plugins: ['ci'],
    otherMocks: 1,
    env: (github, [storage]) => ({ GITHUB_API_URL: github, GITHUB_TOKEN, MCP_FENCE: 'false', MCP_EGRESS_ALLOW: new URL(storage!).host }),
  });

  it('still names the failed CircleCI job and its link, and says which setting would read it', async () => {
    t.mock.on('GET', `/repos/${REPO}/commits/:ref/check-runs`, checkRunsReply([]));
    serveCircleciStatus(t.mock);
    const text = textOf(await t.kernel.call('ci_failure_report', { repo: REPO, ref: SHA }));
    expect(text).to.contain('## CircleCI: ci/circleci: test (failed) https://circleci.com/gh/CircleCI-Public/api-preview-docs/1262');
    expect(text).to.contain('CircleCI is not configured here: set CIRCLECI_TOKEN');
  });
});
