import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../../core/identity/principal.js';
import type { AccountLinking } from '../../../plugins/identity/account-linking.js';
import { IDENTITY_TOKENS } from '../../../plugins/identity/identity-tokens.js';
import type { ApprovalEvent } from '../../../plugins/policy/approvals/notify/approval-event.js';
import { auditLines } from '../../support/audit-records.js';
import { eventually, tempFile } from '../../support/enterprise-fixture.js';
import { GithubOAuthMock } from '../../support/identity/github-oauth-mock.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const SERVICE_TOKEN = 'ghp_service-token-of-the-bot-7a2f91';
const APP = { clientId: 'Iv1.policy-client', clientSecret: 'policy-client-secret-c3e8b0', type: 'oauth-app' as const };
const SECRET = 'whsec-acting-2b9d41c7';
const person = (subject: string): Principal => ({ subject, groups: ['developers'], via: 'tokens' });
const [alice, bob, mallory] = [person('alice'), person('bob'), person('mallory')];

// Issues are filed by people, never by the bot; one contractor's GitHub login needs an approver.
const POLICY = `version: 1
rules:
  - id: people-file-issues
    effect: allow
    match: { tools: [github_create_issue], identity: user }
  - id: contractor-login-reviewed
    effect: approval_required
    reason: Calls acting as this contractor's GitHub account are reviewed first.
    match: { logins: [mallory-*] }
`;

describe('Who acts upstream, in policy rules, _meta, the audit and approval events', function () {
  this.timeout(20_000);
  let github: GithubOAuthMock;
  let receiver: WebhookReceiver;
  let kernel: TestKernel;
  let auditPath: string;

  before(async () => {
    github = await GithubOAuthMock.start(APP);
    github.serviceToken(SERVICE_TOKEN, 'acme-bot');
    github.serveIssues();
    receiver = await WebhookReceiver.start(SECRET);
    auditPath = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-acting-')), 'audit.jsonl');
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['github'] }) },
      env: {
        MCP_TOOLSETS: 'all',
        GITHUB_API_URL: github.apiUrl,
        GITHUB_TOKEN: SERVICE_TOKEN,
        GITHUB_CREDENTIALS: 'user-or-service',
        MCP_VAULT_KEY: randomBytes(32).toString('base64'),
        GITHUB_OAUTH_CLIENT_ID: APP.clientId,
        GITHUB_OAUTH_CLIENT_SECRET: APP.clientSecret,
        MCP_POLICY_FILE: tempFile('policy.yaml', POLICY),
        MCP_AUDIT_LOG: auditPath,
        MCP_APPROVAL_WEBHOOK_URL: receiver.url,
        MCP_APPROVAL_WEBHOOK_SECRET: SECRET,
        MCP_EGRESS_ALLOW: receiver.egressAllow,
      },
    });
    const linking = kernel.kernel.resolve<AccountLinking>(IDENTITY_TOKENS.Linking);
    for (const [who, login] of [
      [alice, 'alice-gh'],
      [mallory, 'mallory-ext'],
    ] as const) {
      const linker = { principal: who.subject, session: `s-${who.subject}` };
      const { url, state } = await linking.start('github', linker);
      await linking.callback('github', github.approve(url, login), state, linker);
    }
  });
  after(async () => {
    await kernel?.close();
    await receiver?.close();
    await github?.close();
  });

  const create = (who: Principal, title: string): Promise<CallToolResult> => kernel.call('github_create_issue', { owner: 'acme', repo: 'app', title }, who);

  it('a rule on identity: user lets a linked person file, and _meta and the audit record name their GitHub login', async () => {
    const result = await create(alice, 'From alice');
    expect(result.isError, textOf(result)).to.equal(undefined);
    const upstream = { kind: 'user', vendor: 'github', login: 'alice-gh', credential: 'alice-gh', host: new URL(github.apiUrl).host, environment: 'default' };
    expect(result._meta!['mcp-devtools/upstream']).to.deep.include(upstream);
    const record = auditLines(auditPath).find((line) => (line as unknown as { principal: { subject: string } }).principal.subject === 'alice') as unknown as {
      upstream: Record<string, unknown>;
      decision: { ruleId: string };
    };
    expect(record.upstream).to.deep.include(upstream);
    expect(record.decision.ruleId).to.equal('people-file-issues');
  });

  it('the same call acting with the service credential (bob has no link) is denied by that rule, and nothing is sent', async () => {
    const before = github.requests.length;
    const result = await create(bob, 'From bob');
    expect(result.isError).to.equal(true);
    expect(textOf(result)).to.include('policy_denied');
    expect(github.requests.length).to.equal(before);
    const record = auditLines(auditPath).find((line) => (line as unknown as { principal: { subject: string } }).principal.subject === 'bob') as unknown as {
      upstream: Record<string, unknown>;
    };
    expect(record.upstream).to.deep.equal({ vendor: 'github', credential: 'GITHUB_TOKEN', host: new URL(github.apiUrl).host, environment: 'default' });
  });

  it('a rule on logins holds the contractor\'s call; the approval event says "acts as mallory-ext on GitHub"', async () => {
    const held = await create(mallory, 'From mallory');
    expect(held._meta?.code ?? textOf(held)).to.satisfy((code: string) => code === 'approval_required' || code.includes('approval_required'));
    await eventually('the held event was delivered', () => receiver.posts.some((p) => p.status === 200));
    const event = JSON.parse(receiver.posts.find((p) => p.status === 200)!.body) as ApprovalEvent;
    expect(event.approval.acts).to.equal('acts as mallory-ext on GitHub');
    expect(event.approval.identity).to.deep.include({ kind: 'user', login: 'mallory-ext' });
    expect(event.text).to.include('as mallory-ext on GitHub');
    expect(
      github.requests.filter((r) => r.path.endsWith('/issues')).map((r) => github.loginOf(/bearer (.+)/i.exec(r.headers.authorization ?? '')![1]!)),
    ).to.deep.equal(['alice-gh']);
  });
});
