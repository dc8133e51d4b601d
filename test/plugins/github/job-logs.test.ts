import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ArtifactStore } from '../../../core/artifacts/artifact-store.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../../core/identity/principal.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { TOKENS } from '../../../core/tokens.js';
import { jobLog } from '../../fixtures/github/github-api.js';
import { textOf, type TestKernel } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const TOKEN = 'ghp_logsTestToken0123456789';
const LOGS_PATH = '/repos/octo-org/octo-repo/actions/jobs/399444496/logs';
const ALICE: Principal = { subject: 'alice', groups: [], via: 'tokens' };

/** GitHub's answer to a logs request: 302 to a short-lived signed URL on a blob host (another origin). */
function redirectTo(blob: MockUpstream, jobId = '399444496'): { status: number; headers: Record<string, string> } {
  return { status: 302, headers: { location: `${blob.url}/actions-results/${jobId}/logs/job.txt?sv=2021-12-02&se=2030-01-01T00%3A00%3A00Z&sig=c2lnbmF0dXJl` } };
}

const artifactIdIn = (text: string): string => {
  const match = /artifact ([0-9a-f]{32})/.exec(text);
  if (match === null) throw new Error(`no artifact id in:\n${text.slice(0, 500)}`);
  return match[1]!;
};

async function readArtifact(kernel: TestKernel, owner: Principal, artifactId: string): Promise<string> {
  const artifacts = kernel.kernel.resolve<ArtifactStore>(TOKENS.ArtifactStore);
  const parts: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const chunk = await artifacts.read(owner, artifactId, offset, 1024 * 1024);
    parts.push(Buffer.from(chunk.data, 'base64'));
    ({ nextOffset: offset, eof } = chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

// MCP_FENCE=false: these tests are of the tools' mechanics; labels and fences: test/plugins/provenance/ and test/e2e/untrusted-*.test.ts.
describe('github_get_job_logs (API mock redirecting to a second mock acting as the blob host)', () => {
  // The blob host mock is on loopback, where the egress guard allows only what the operator names.
  const t = useVendorKernel({
    plugins: ['github'],
    otherMocks: 1,
    env: (url, [blobUrl]) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_FENCE: 'false', MCP_EGRESS_ALLOW: new URL(blobUrl!).host }),
  });
  const api = (): MockUpstream => t.mock;
  const blob = (): MockUpstream => t.others[0]!;

  it('follows the 302 to the blob host without the Authorization header', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog() });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(api().requests[0]!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(blob().requests).to.have.length(1);
    expect(blob().requests[0]!.headers.authorization).to.equal(undefined);
    expect(blob().requests[0]!.query.get('sig')).to.equal('c2lnbmF0dXJl');
    expect(JSON.stringify(blob().requests[0]!.headers)).not.to.contain(TOKEN);
  });

  it('shows the whole of a short log under a header, and names the artifact that holds it', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog() });
    const text = textOf(await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 }));
    const log = jobLog().replace(/^\uFEFF/, '');
    const [header, saved, separator, ...rest] = text.split('\n');
    expect(header).to.equal('Log of job 399444496 of octo-org/octo-repo: all 68 lines.');
    expect(saved).to.match(
      /^The whole log \(\d+ bytes, text\/plain\) is artifact [0-9a-f]{32}: read it with artifact_read, artifactId "[0-9a-f]{32}", encoding "utf8"\.$/,
    );
    expect(separator).to.equal('---');
    expect(rest.join('\n')).to.equal(log.trimEnd());
  });

  it('keeps only the last tailLines lines, and saves the whole log for the caller alone', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog() });
    const text = textOf(await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496, tailLines: 3 }, ALICE));
    expect(text.split('\n')[0]).to.equal('Log of job 399444496 of octo-org/octo-repo: the last 3 of 68 lines.');
    expect(text.split('---\n')[1]).to.equal(
      [
        '2020-01-20T17:44:30.2284119Z ##[error]Process completed with exit code 1.',
        '2020-01-20T17:44:30.2412250Z Post job cleanup.',
        '2020-01-20T17:44:39.0150081Z Cleaning up orphan processes',
      ].join('\n'),
    );
    const id = artifactIdIn(text);
    expect(await readArtifact(t.kernel, ALICE, id)).to.equal(jobLog().replace(/^\uFEFF/, ''));
    let refused: unknown;
    await readArtifact(t.kernel, LOCAL_PRINCIPAL, id).catch((error: unknown) => (refused = error));
    expect((refused as { code?: string }).code).to.equal('artifact_not_found');
  });

  it("shows the end of a log of tens of MiB within the model's text limit, the whole log in the artifact", async function () {
    this.timeout(60_000);
    const big = jobLog(250_000); // about 18 MiB
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: big });
    const text = textOf(await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496, tailLines: 2000 }));
    expect(text.length).to.be.below(40_000);
    expect(text).not.to.contain('Response Truncated');
    expect(text.split('\n')[0]).to.match(
      /^Log of job 399444496 of octo-org\/octo-repo: the last \d+ of 250000 lines \(tailLines 2000 would not fit in 38000 characters\)\.$/,
    );
    const lines = big.trimEnd().split('\n');
    expect(text.endsWith(`\n${lines.at(-1)!}`)).to.equal(true);
    const whole = await readArtifact(t.kernel, LOCAL_PRINCIPAL, artifactIdIn(text));
    expect(whole.length).to.equal(big.length - 1); // all but the BOM
    expect(whole === big.slice(1)).to.equal(true);
  });

  it('never puts the configured token into the artifact, even when the job printed it', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `${jobLog()}2020-01-20T17:44:40.0000000Z debug: token=${TOKEN}\n`,
    });
    const text = textOf(await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496, tailLines: 1 }));
    expect(text.endsWith('debug: token=[REDACTED]')).to.equal(true);
    const whole = await readArtifact(t.kernel, LOCAL_PRINCIPAL, artifactIdIn(text));
    expect(whole).not.to.contain(TOKEN);
    expect(whole.endsWith('debug: token=[REDACTED]\n')).to.equal(true);
  });

  it('says what to do about a log larger than MCP_MAX_RESPONSE_BYTES', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog(600_000) }); // about 32.5 MiB
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.equal(
      'Error: The log of job 399444496 is larger than MCP_MAX_RESPONSE_BYTES (33554432 bytes), so it was not read. Find the failing step with github_list_workflow_jobs, or have MCP_MAX_RESPONSE_BYTES raised to read logs this large.\nCode: upstream_too_large',
    );
  });

  it('says an empty log is empty', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: '' });
    const text = textOf(await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 }));
    expect(text.split('\n')[0]).to.equal('The log of job 399444496 of octo-org/octo-repo is empty.');
  });

  it("reports logs that are gone (410) as an error with the status and GitHub's body", async () => {
    api().on('GET', LOGS_PATH, {
      status: 410,
      body: { message: 'Logs have expired and are no longer available.', documentation_url: 'https://docs.github.com/rest/actions/workflow-jobs' },
    });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 410');
    expect(textOf(result)).to.contain('Logs have expired');
    expect(blob().requests).to.have.length(0);
  });

  it('reports an expired signed URL from the blob host as an error, not as log text', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', {
      status: 403,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Signed expiry time has to be after signed start time</Message></Error>',
    });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.contain('HTTP Status: 403');
    expect(textOf(result)).to.contain('AuthenticationFailed');
  });
});

describe('github_get_job_logs when the artifact store fails', () => {
  const t = useVendorKernel({
    plugins: ['github'],
    otherMocks: 1,
    env: (url, [blobUrl]) => ({
      GITHUB_API_URL: url,
      GITHUB_TOKEN: TOKEN,
      MCP_FENCE: 'false',
      MCP_EGRESS_ALLOW: new URL(blobUrl!).host,
      MCP_STORE_URL: `sqlite://${join(mkdtempSync(join(tmpdir(), 'mcp-devtools-logs-store-')), 'store.db')}`,
    }),
  });
  const api = (): MockUpstream => t.mock;
  const blob = (): MockUpstream => t.others[0]!;

  it('still shows the tail, says the whole log could not be saved, and logs why', async () => {
    api().on('GET', LOGS_PATH, redirectTo(blob()));
    blob().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: jobLog() });
    // A real outage: the SQLite store's connection is gone, so every write fails.
    await t.kernel.kernel.resolve<KeyValueStore>(TOKENS.Store).close();
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496, tailLines: 2 });
    expect(result.isError).to.equal(undefined);
    const text = textOf(result);
    expect(text).to.contain('The whole log could not be saved as an artifact; only the lines below are available.');
    expect(text.endsWith('Post job cleanup.\n2020-01-20T17:44:39.0150081Z Cleaning up orphan processes')).to.equal(true);
    expect(t.kernel.logs.some((line) => line.includes('could not save the whole log as an artifact'))).to.equal(true);
  });
});

describe("github_get_job_logs: a log redirect into the server's own network (issue 42)", () => {
  // No MCP_EGRESS_ALLOW: the redirect leads to an internal service on loopback, as in the review.
  const t = useVendorKernel({ plugins: ['github'], otherMocks: 1, env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: TOKEN, MCP_FENCE: 'false' }) });
  const api = (): MockUpstream => t.mock;
  const internal = (): MockUpstream => t.others[0]!;

  it('is refused: nothing is sent to the internal service, and the error names the address and the setting', async () => {
    api().on('GET', LOGS_PATH, redirectTo(internal()));
    internal().on('GET', '/actions-results/:job/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: 'canary-internal-body' });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(textOf(result)).to.equal(
      `Error: GitHub redirected GET ${LOGS_PATH} to another origin (${internal().url}); it is not followed: 127.0.0.1 is a loopback address. If that host is meant to be reached, add it to MCP_EGRESS_ALLOW.\nCode: egress_refused\nHTTP Status: 302`,
    );
    expect(internal().requests).to.have.length(0);
  });

  it('is refused for a metadata address too', async () => {
    api().on('GET', LOGS_PATH, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' } });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(textOf(result)).to.contain('it is not followed: 169.254.169.254 is a cloud metadata address.').and.to.contain('Code: egress_refused');
  });
});
