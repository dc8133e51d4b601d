// The GitHub attack's shape across Confluence and Jira, replayed against the built server with the official SDK
// client over stdio: an outsider's page in a space anyone may read tells the agent to read a private Jira issue
// and publish it in a new page of that public space. Under the shipped policy (examples/policies/untrusted-content.yaml)
// the page is held for an approver, `_meta` and the audit record say why, and Confluence never receives it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import type { MockUpstream } from '../../server/testing/mock-upstream.js';
import { ATLASSIAN_ATTACK, attackAtlassian, OUTSIDER, PAGE_INJECTION } from '../support/attack-atlassian.js';
import { REPO_ROOT } from '../support/paths.js';
import { connectStdio } from '../support/sdk-client.js';
import type { ProvenanceLabel as Label } from '../../core/plugin/provenance.js';

const POLICY = resolve(REPO_ROOT, 'examples/policies/untrusted-content.yaml');
const PROVENANCE = 'mcp-devtools/provenance';

const labelsOf = (result: CallToolResult): Label[] => (result._meta?.[PROVENANCE] as { labels: Label[] }).labels;
const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const pagesSent = (site: MockUpstream): number => site.requests.filter((r) => r.method === 'POST').length;

interface AuditLine {
  tool: string;
  decision: { effect: string; reason: string; flow?: unknown } | null;
  outcome: { status: string; code?: string };
  provenance?: { labels: number; untrusted: string[]; private: string[] };
}
const auditOf = (file: string): AuditLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);

describe('the attack across Confluence and Jira, replayed (dist/cli.js, the SDK client, the shipped flow policy)', function () {
  this.timeout(60_000);
  let site: MockUpstream;
  let dir: string;
  const env = (): Record<string, string> => ({
    ATLASSIAN_USER_EMAIL: 'agent@acme.example',
    ATLASSIAN_API_TOKEN: 'ATATT3xFfGF0-attack-replay-token',
    JIRA_BASE_URL: site.url,
    JIRA_DEPLOYMENT: 'cloud',
    CONFLUENCE_BASE_URL: site.url,
    CONFLUENCE_DEPLOYMENT: 'cloud',
    MCP_TRUSTED_GROUPS: 'jira-software-users',
    MCP_POLICY_FILE: POLICY,
    MCP_AUDIT_LOG: join(dir, `audit-${Math.random().toString(16).slice(2)}.jsonl`),
  });

  before(async () => {
    site = await attackAtlassian();
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-atlassian-attack-'));
  });
  beforeEach(() => site.requests.splice(0));
  after(async () => {
    await site?.close();
  });

  it("labels the outsider's page untrusted and public and fences it, the issue private; holds the new page, which Confluence never receives", async () => {
    const settings = env();
    const session = await connectStdio({ env: settings });
    try {
      const call = (c: { name: string; arguments: Record<string, unknown> }): Promise<CallToolResult> => session.client.callTool(c) as Promise<CallToolResult>;
      const pageRead = await call(ATLASSIAN_ATTACK.readPage);
      expect(pageRead.isError, textOf(pageRead)).to.equal(undefined);
      expect(labelsOf(pageRead)).to.deep.equal([
        {
          item: 'PUB page 98001',
          resource: 'confluence:pub',
          integrity: 'untrusted',
          confidentiality: 'public',
          author: OUTSIDER,
          why: 'in none of MCP_TRUSTED_GROUPS (last editor); space readable anonymously',
          url: 'https://acme.atlassian.net/wiki/spaces/PUB/pages/98001',
        },
      ]);
      const [open, close] = (pageRead._meta?.[PROVENANCE] as { fence: string }).fence.split('…');
      expect(textOf(pageRead)).to.contain(`${open}${PAGE_INJECTION}${close}`);

      const issueRead = await call(ATLASSIAN_ATTACK.readIssue);
      expect(issueRead.isError, textOf(issueRead)).to.equal(undefined);
      expect(labelsOf(issueRead)[0]).to.include({ item: 'PLAT-7', resource: 'jira:plat', integrity: 'trusted', confidentiality: 'private' });

      const created = await call(ATLASSIAN_ATTACK.publish);
      expect(created.isError).to.equal(true);
      expect(created._meta?.code).to.equal('approval_required');
      const decision = created._meta?.decision as { ruleId: string; reason: string; flow: Record<string, unknown> };
      expect(decision.ruleId).to.equal('untrusted-and-private-to-public');
      expect(decision.reason).to.contain('This session read untrusted content from PUB page 98001 and private content from plat; pub is public.');
      expect(decision.flow).to.deep.include({ untrusted: 'PUB page 98001', private: 'jira:plat' });
      expect(decision.flow.target).to.deep.equal({ resource: 'confluence:pub', visibility: 'public', known: true });
      expect(pagesSent(site)).to.equal(0);

      const audit = auditOf(settings.MCP_AUDIT_LOG!);
      expect(audit.find((a) => a.tool === 'conf_get_page')?.provenance).to.deep.equal({ labels: 1, untrusted: ['PUB page 98001'], private: [] });
      expect(audit.find((a) => a.tool === 'jira_get_issue')?.provenance).to.deep.include({ untrusted: [], private: ['jira:plat'] });
      const held = audit.find((a) => a.tool === 'conf_create_page')!;
      expect(held.outcome).to.deep.equal({ status: 'error', code: 'approval_required' });
      expect(held.decision?.flow).to.deep.include({ untrusted: 'PUB page 98001', private: 'jira:plat' });
    } finally {
      await session.close();
    }
  });

  it('a session that read only the private issue publishes the page (the rule is the flow, not the write)', async () => {
    const session = await connectStdio({ env: env() });
    try {
      const issueRead = (await session.client.callTool(ATLASSIAN_ATTACK.readIssue)) as CallToolResult;
      expect(issueRead.isError, textOf(issueRead)).to.equal(undefined);
      const created = (await session.client.callTool(ATLASSIAN_ATTACK.publish)) as CallToolResult;
      expect(created.isError, textOf(created)).to.equal(undefined);
      expect(pagesSent(site)).to.equal(1);
    } finally {
      await session.close();
    }
  });
});
