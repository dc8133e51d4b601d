import { expect } from 'chai';
import type { Principal } from '../../../core/identity/principal.js';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { FAILED_TEST_OUTPUT, jobDetailV1, serveJobLogs } from '../../fixtures/circleci/circleci-v1.js';
import { readTextArtifact } from '../../support/artifact-reader.js';
import { textOf } from '../../support/test-kernel.js';
import { freePort } from '../../support/free-port.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'circle-logsTestToken0123456789';
const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const DETAIL_PATH = '/api/v1.1/project/github/CircleCI-Public/api-preview-docs/1262';
const BOB: Principal = { subject: 'bob', groups: [], via: 'tokens' };

/** The other steps' output, by the step index CircleCI puts in each output URL. */
const OTHER_OUTPUTS: Record<number, string> = {
  0: 'Starting container cimg/node:20.19\nusing image cimg/node@sha256:4a1b\n',
  99: 'Using build environment variables\n  CIRCLE_JOB=test\n',
  101: 'Cloning git repository\nChecking out branch\n',
  102: '\u001b[1madded 412 packages\u001b[22m in 31s\n',
  104: 'Archiving the following test results\n  * test-results/mocha.xml\n',
};

const artifactIdIn = (text: string): string => /artifact ([0-9a-f]{32})/.exec(text)?.[1] ?? '';

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('circleci_logs (v1.1 job detail on the API mock, step output on a storage mock)', () => {
  // The storage mock is on loopback, as an internal service would be: the operator allows it by host and port.
  const t = useVendorKernel({
    plugins: ['circleci'],
    otherMocks: 1,
    env: (url, [storage]) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN, MCP_FENCE: 'false', MCP_EGRESS_ALLOW: new URL(storage!).host }),
  });
  const api = (): MockUpstream => t.mock;
  const storage = (): MockUpstream => t.others[0]!;
  const logs = (args: Record<string, unknown> = {}, principal?: Principal) =>
    t.kernel.call('circleci_logs', { projectSlug: SLUG, jobNumber: 1262, ...args }, principal);

  it('shows the failed step only, escape codes stripped, a spinner as drawn last, a retry loop collapsed', async () => {
    serveJobLogs(api(), storage(), { ...OTHER_OUTPUTS, 103: FAILED_TEST_OUTPUT });
    const result = await logs();
    expect(result.isError, textOf(result)).to.equal(undefined);
    const [header, steps, saved, separator, ...tail] = textOf(result).split('\n');
    expect(header).to.equal(`Output of the failed steps of job 1262 of ${SLUG}: all 21 lines.`);
    expect(steps).to.equal('Steps shown: 5 "Run tests". Escape codes are stripped; repeated lines are collapsed in the lines below, not in the artifact.');
    expect(saved).to.match(
      /^The whole output \(\d+ bytes, text\/plain\) is artifact [0-9a-f]{32}: read it with artifact_read, artifactId "[0-9a-f]{32}", encoding "utf8"\.$/,
    );
    expect(separator).to.equal('---');
    expect(tail[0]).to.equal('=== Step 5 "Run tests" (failed, exit code 1) ===');
    expect(tail).to.include('✔ index built');
    expect(textOf(result)).not.to.contain('building index');
    expect(tail).to.include('waiting for search service on 127.0.0.1:9200 ...  [repeated 40 times]');
    expect(tail).to.include('     AssertionError: expected 2 to equal 1');
    expect(tail.at(-1)).to.equal('Exited with code exit status 1');
    // eslint-disable-next-line no-control-regex -- the escape character is what must be gone
    expect(textOf(result)).not.to.match(/\u001b|\r/);
  });

  it('sends the token to the API only: the output URLs are fetched without it', async () => {
    serveJobLogs(api(), storage(), { ...OTHER_OUTPUTS, 103: FAILED_TEST_OUTPUT });
    await logs();
    expect(api().requests.map((r) => [r.path, r.headers['circle-token']])).to.deep.equal([[DETAIL_PATH, TOKEN]]);
    expect(storage().requests).to.have.length(1);
    const fetched = storage().requests[0]!;
    expect(fetched.path).to.equal('/picard/5f3b9c1a0a1b2c3d4e5f6a7b/6360f5a1e0c3b7346e0b1a2c-0-build/5F3B9C1A/103/output');
    expect(fetched.query.get('X-Amz-Signature')).to.equal('2d8e6c4a0f1b');
    expect(fetched.headers['circle-token']).to.equal(undefined);
    expect(JSON.stringify(fetched.headers)).not.to.contain(TOKEN);
  });

  it('saves the whole output, uncollapsed, as a text artifact only the caller can read', async () => {
    serveJobLogs(api(), storage(), { ...OTHER_OUTPUTS, 103: FAILED_TEST_OUTPUT });
    const artifactId = artifactIdIn(textOf(await logs()));
    const whole = await readTextArtifact(t.kernel, artifactId);
    expect(whole.split('\n').filter((l) => l === 'waiting for search service on 127.0.0.1:9200 ...')).to.have.length(40);
    expect(whole.startsWith('=== Step 5 "Run tests" (failed, exit code 1) ===\n#!/bin/bash -eo pipefail\n')).to.equal(true);
    // eslint-disable-next-line no-control-regex -- the escape character is what must be gone
    expect(whole).not.to.match(/\u001b|\r/);
    const foreign = await t.kernel.call('artifact_read', { artifactId, encoding: 'utf8' }, BOB);
    expect(textOf(foreign)).to.equal('Error: Artifact not found or expired\nCode: artifact_not_found');
  });

  it('shows every step in order with failedOnly: false, and the last tailLines lines', async () => {
    serveJobLogs(api(), storage(), { ...OTHER_OUTPUTS, 103: FAILED_TEST_OUTPUT });
    const text = textOf(await logs({ failedOnly: false, tailLines: 3 }));
    expect(text.split('\n')[0]).to.equal(`Output of every step of job 1262 of ${SLUG}: the last 3 of 35 lines.`);
    expect(text.split('\n')[1]).to.match(
      /^Steps shown: 1 "Spin up environment", 2 "Preparing environment variables", 3 "Checkout code", 4 "Install dependencies", 5 "Run tests", 6 "Uploading test results"\./,
    );
    expect(text.split('---\n')[1]).to.equal(
      '=== Step 6 "Uploading test results" (success) ===\nArchiving the following test results\n  * test-results/mocha.xml',
    );
    const whole = await readTextArtifact(t.kernel, artifactIdIn(text));
    const headings = whole.split('\n').filter((l) => l.startsWith('=== Step'));
    expect(headings).to.deep.equal([
      '=== Step 1 "Spin up environment" (success) ===',
      '=== Step 2 "Preparing environment variables" (success) ===',
      '=== Step 3 "Checkout code" (success, exit code 0) ===',
      '=== Step 4 "Install dependencies" (success, exit code 0) ===',
      '=== Step 5 "Run tests" (failed, exit code 1) ===',
      '=== Step 6 "Uploading test results" (success) ===',
    ]);
    expect(whole).to.contain('added 412 packages in 31s');
    expect(storage().requests).to.have.length(6);
  });

  it('shows one step named by number or by name, whatever its status', async () => {
    serveJobLogs(api(), storage(), { ...OTHER_OUTPUTS, 103: FAILED_TEST_OUTPUT });
    for (const step of [3, 'Checkout code']) {
      const text = textOf(await logs({ step }));
      expect(text.split('\n')[0]).to.equal(`Output of step ${JSON.stringify(step)} of job 1262 of ${SLUG}: all 3 lines.`);
      expect(text.split('---\n')[1]).to.equal('=== Step 3 "Checkout code" (success, exit code 0) ===\nCloning git repository\nChecking out branch');
    }
  });

  it('names the steps that exist when step matches none, without fetching any output', async () => {
    serveJobLogs(api(), storage(), OTHER_OUTPUTS);
    const result = await logs({ step: 'Deploy' });
    expect(result.isError).to.equal(undefined);
    expect(textOf(result)).to.equal(
      `Job 1262 of ${SLUG}: The job has no step "Deploy"; its steps are 1 "Spin up environment", 2 "Preparing environment variables", 3 "Checkout code", 4 "Install dependencies", 5 "Run tests", 6 "Uploading test results".`,
    );
    expect(storage().requests).to.have.length(0);
  });

  it('says a job without failed steps has none, and how to see every step', async () => {
    const detail = jobDetailV1(storage().url);
    Object.assign(detail.steps[4]!.actions[0]!, { status: 'success', failed: null, exit_code: 0 });
    detail.status = 'success';
    serveJobLogs(api(), storage(), OTHER_OUTPUTS, detail);
    expect(textOf(await logs())).to.equal(`Job 1262 of ${SLUG} (status success) has no failed steps. Pass failedOnly: false for the output of every step.`);
    expect(storage().requests).to.have.length(0);
  });

  it('shows each container of a parallel step under its own heading', async () => {
    const detail = jobDetailV1(storage().url);
    const failed = detail.steps[4]!.actions[0]!;
    detail.steps[4]!.actions.push({ ...failed, index: 1, output_url: failed.output_url.replace('/103/output', '/203/output') });
    serveJobLogs(api(), storage(), { 103: 'container zero failed\n', 203: 'container one failed\n' }, detail);
    const text = textOf(await logs());
    expect(text.split('---\n')[1]).to.equal(
      '=== Step 5 "Run tests" (failed, exit code 1, container 0) ===\ncontainer zero failed\n=== Step 5 "Run tests" (failed, exit code 1, container 1) ===\ncontainer one failed',
    );
  });

  it('names an output that cannot be read (an expired URL) in its place, and still shows the others', async () => {
    serveJobLogs(api(), storage(), { 101: 'Cloning git repository\n' }); // step 103's URL answers 403
    const text = textOf(await logs({ failedOnly: false }));
    expect(text).to.contain(
      '=== Step 5 "Run tests" (failed, exit code 1) ===\n(the output could not be read: CircleCI step output answered 403 Forbidden for GET /picard/',
    );
    expect(text).to.contain('Cloning git repository');
  });

  it('never shows or saves a configured secret the job printed', async () => {
    serveJobLogs(api(), storage(), { 103: `export CIRCLECI_TOKEN=${TOKEN}\nnpm test failed\n` });
    const text = textOf(await logs());
    expect(text).to.contain('export CIRCLECI_TOKEN=[REDACTED]');
    const whole = await readTextArtifact(t.kernel, artifactIdIn(text));
    expect(whole).not.to.contain(TOKEN);
    expect(whole).to.contain('export CIRCLECI_TOKEN=[REDACTED]');
  });

  it('reads a Bitbucket project through its v1.1 name', async () => {
    api().on('GET', '/api/v1.1/project/bitbucket/acme/api/7', { body: { status: 'success', steps: [] } });
    const result = await t.kernel.call('circleci_logs', { projectSlug: 'bb/acme/api', jobNumber: 7 });
    expect(textOf(result)).to.equal('Job 7 of bb/acme/api (status success) has no failed steps. Pass failedOnly: false for the output of every step.');
  });

  it('reports a job CircleCI does not know with its status and message', async () => {
    api().on('GET', DETAIL_PATH, { status: 404, body: { message: 'Build not found' } });
    const result = await logs();
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 404');
    expect(textOf(result)).to.contain('Build not found');
  });

  it('refuses a slug v1.1 cannot address before any request', async () => {
    for (const projectSlug of ['circleci/6a3e1c2b/4c43', 'gh/acme', 'gh/acme/api/extra', 'gh/../api']) {
      const result = await t.kernel.call('circleci_logs', { projectSlug, jobNumber: 1 });
      expect(textOf(result), projectSlug).to.match(/Code: invalid_(arguments|path)/);
    }
    expect(api().requests).to.have.length(0);
  });
});

describe("circleci_logs: an output URL that points into the server's own network (issue 42)", () => {
  // No MCP_EGRESS_ALLOW: the "storage host" below is an internal service on loopback, as in the review.
  const t = useVendorKernel({ plugins: ['circleci'], otherMocks: 1, env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: TOKEN, MCP_FENCE: 'false' }) });
  const api = (): MockUpstream => t.mock;
  const internal = (): MockUpstream => t.others[0]!;
  const CANARY = 'canary-internal-service-7f3a';
  const logs = () => t.kernel.call('circleci_logs', { projectSlug: SLUG, jobNumber: 1262 });

  it("returns none of an internal loopback service's JSON, to the caller or to an artifact, and sends it nothing", async () => {
    serveJobLogs(api(), internal(), { 103: `{"admin_password":"${CANARY}"}` });
    internal().on('GET', '/internal/config', { body: { secret: CANARY } });
    const text = textOf(await logs());
    expect(text).not.to.contain(CANARY);
    expect(text).to.contain(
      `=== Step 5 "Run tests" (failed, exit code 1) ===\n(the output could not be read: CircleCI step output: GET ${internal().url}/picard/`,
    );
    expect(text).to.contain(': 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.)');
    expect(await readTextArtifact(t.kernel, artifactIdIn(text))).not.to.contain(CANARY);
    expect(internal().requests).to.have.length(0);
  });

  it('is no port scanner: an open port and a closed one give the same answer', async () => {
    const answers: string[] = [];
    for (const port of [Number(new URL(internal().url).port), await freePort()]) {
      serveJobLogs(api(), internal(), { 103: 'npm test failed\n' }, jobDetailV1(`http://127.0.0.1:${port}`));
      answers.push(
        textOf(await logs())
          .replaceAll(String(port), 'PORT')
          .replace(/[0-9a-f]{32}/g, 'ID'),
      );
    }
    expect(answers[0]).to.contain('127.0.0.1 is a loopback address');
    expect(answers[1]).to.equal(answers[0]);
    expect(internal().requests).to.have.length(0);
  });

  it('refuses an output URL on a cloud metadata address', async () => {
    for (const [host, why] of [
      ['http://169.254.169.254', '169.254.169.254 is a cloud metadata address'],
      ['http://[fd00:ec2::254]', 'fd00:ec2::254 is a cloud metadata address'],
    ]) {
      serveJobLogs(api(), internal(), {}, jobDetailV1(host!));
      expect(textOf(await logs()), host).to.contain(`${why}. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.)`);
    }
  });
});
