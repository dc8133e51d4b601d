// Requests to URLs an upstream handed out (a redirect to a storage host, CircleCI's step output URL) are decided
// by the policy like any other request (issue 42): rules see the vendor, the credential `signed URL` and the host
// the request goes to, and the audit record keeps the decision. Here the operator pins storage to the hosts the
// vendors really use (the rule of docs/policy.md, as published), so a loopback "storage host" the egress guard
// lets through (MCP_EGRESS_ALLOW) is refused unless the rule names it too.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { serveAttachment, TINY_IMAGES } from '../../fixtures/atlassian/jira-attachments.js';
import { serveJobLogs } from '../../fixtures/circleci/circleci-v1.js';
import { REPO_ROOT } from '../../support/paths.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { ACCOUNT } from '../atlassian/atlassian-calls.js';

const dir = mkdtempSync(join(tmpdir(), 'foreign-requests-'));
const audit = join(dir, 'audit.jsonl');
const LOGS_PATH = '/repos/octo-org/octo-repo/actions/jobs/399444496/logs';

/** The storage rule of docs/policy.md's egress section, exactly as published. */
function publishedStorageRule(): { id: string; except: { hosts: string[] } } {
  const doc = readFileSync(join(REPO_ROOT, 'docs/policy.md'), 'utf8');
  const match = /```yaml\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('### Egress: requests to URLs an upstream hands out')));
  if (match === null) throw new Error('docs/policy.md has no yaml block in its egress section');
  return (parse(match[1]!) as Array<{ id: string; except: { hosts: string[] } }>)[0]!;
}

/** That rule, with `extraHost` among the storage hosts when given, then a rule that allows everything else. */
function policy(extraHost: string): string {
  const file = join(dir, `policy-${extraHost.replace(/\W/g, '-')}.yaml`);
  const rule = publishedStorageRule();
  if (extraHost !== '') rule.except.hosts.push(extraHost);
  writeFileSync(file, JSON.stringify({ version: 1, rules: [rule, { id: 'rest', effect: 'allow' }] }));
  return file;
}

const lastAudit = (): { tool: string; decision: { effect: string; ruleId: string | null }; outcome: { status: string; code?: string } } =>
  JSON.parse(readFileSync(audit, 'utf8').trim().split('\n').at(-1)!);

function vendors(extraHost: (storage: string) => string) {
  return useVendorKernel({
    plugins: ['github', 'jira', 'circleci'],
    otherMocks: 1,
    env: (url, [storage]) => ({
      GITHUB_API_URL: url,
      GITHUB_TOKEN: 'ghp_foreignRequests0001',
      JIRA_BASE_URL: url,
      ...ACCOUNT,
      CIRCLECI_BASE_URL: url,
      CIRCLECI_TOKEN: 'circle-foreignRequests0001',
      MCP_EGRESS_ALLOW: new URL(storage!).host,
      MCP_POLICY_FILE: policy(extraHost(storage!)),
      MCP_AUDIT_LOG: audit,
    }),
  });
}

describe('policy: requests to URLs an upstream handed out are decided by host, and audited', () => {
  const t = vendors(() => '');
  const storage = (): MockUpstream => t.others[0]!;
  const storageHost = (): string => new URL(storage().url).host;

  it("refuses GitHub's log redirect to a host the rules do not name, before anything is sent there", async () => {
    t.mock.on('GET', LOGS_PATH, { status: 302, headers: { location: `${storage().url}/actions-results/1/logs/job.txt?sig=c2ln` } });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(textOf(result)).to.match(
      new RegExp(
        `^Error: github_get_job_logs \\(GET ${LOGS_PATH}\\) was redirected to ${storageHost()}/actions-results/1/logs/job\\.txt, which the policy refuses for local: Logs and attachments come from the vendors' storage hosts only\\. \\(rule known-storage-only; policy sha256:[0-9a-f]{16}\\)\\nCode: policy_denied$`,
      ),
    );
    expect(textOf(result)).not.to.contain('sig=');
    expect(storage().requests).to.have.length(0);
    expect(lastAudit()).to.deep.include({ tool: 'github_get_job_logs', outcome: { status: 'error', code: 'policy_denied' } });
    expect(lastAudit().decision).to.include({ effect: 'deny', ruleId: 'known-storage-only' });
  });

  it("refuses Jira's attachment redirect the same way", async () => {
    serveAttachment(t.mock, storage(), '10001', { filename: 'a.png', mimeType: 'image/png' }, TINY_IMAGES['image/png']);
    const result = await t.kernel.call('jira_get_attachment', { attachmentId: '10001' });
    expect(textOf(result)).to.contain(`was redirected to ${storageHost()}/file/`).and.to.contain('(rule known-storage-only;');
    expect(storage().requests).to.have.length(0);
    expect(lastAudit().decision).to.include({ effect: 'deny', ruleId: 'known-storage-only' });
  });

  it("refuses CircleCI's step output URL on such a host (a further request of the call)", async () => {
    serveJobLogs(t.mock, storage(), { 103: 'npm test failed\n' });
    const text = textOf(await t.kernel.call('circleci_logs', { projectSlug: 'gh/CircleCI-Public/api-preview-docs', jobNumber: 1262 }));
    expect(text).to.contain('(the output could not be read: The policy refused GET /picard/').and.to.contain('(rule known-storage-only;');
    expect(storage().requests).to.have.length(0);
  });
});

describe('policy: a storage host the rules name is reached', () => {
  const t = vendors((storage) => new URL(storage).host);
  const storage = (): MockUpstream => t.others[0]!;

  it('follows the log redirect to it, without the token, and audits the call as allowed', async () => {
    t.mock.on('GET', LOGS_PATH, { status: 302, headers: { location: `${storage().url}/actions-results/1/logs/job.txt?sig=c2ln` } });
    storage().on('GET', '/actions-results/1/logs/job.txt', { headers: { 'content-type': 'text/plain' }, body: 'the log\n' });
    const result = await t.kernel.call('github_get_job_logs', { owner: 'octo-org', repo: 'octo-repo', jobId: 399444496 });
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(storage().requests[0]!.headers.authorization).to.equal(undefined);
    expect(lastAudit()).to.deep.include({ tool: 'github_get_job_logs', outcome: { status: 'ok' } });
  });
});
