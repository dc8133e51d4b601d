// The published attack on an agent with GitHub access, replayed against the built server with the official SDK
// client: an outsider's issue in a public repository tells the agent to read a private repository and publish
// it in a public pull request. Under the shipped policy (examples/policies/untrusted-content.yaml) the pull
// request is held for an approver, the result's _meta and the audit record say why, and GitHub never receives it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StreamableHTTPClientTransport, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { kitClient } from '../../server/testing/sdk-client.js';
import type { MockUpstream } from '../../server/testing/mock-upstream.js';
import { ATTACK, attackGithub, INJECTION, SECRET_README } from '../support/attack-github.js';
import { REPO_ROOT } from '../support/paths.js';
import { connectStdio, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';
import type { ProvenanceLabel as Label } from '../../core/plugin/provenance.js';

const POLICY = resolve(REPO_ROOT, 'examples/policies/untrusted-content.yaml');
const PROVENANCE = 'mcp-devtools/provenance';

const labelsOf = (result: CallToolResult): Label[] => (result._meta?.[PROVENANCE] as { labels: Label[] }).labels;
const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const pullRequestsSent = (github: MockUpstream): number => github.requests.filter((r) => r.method === 'POST').length;

interface AuditLine {
  tool: string;
  decision: { effect: string; reason: string; flow?: unknown } | null;
  outcome: { status: string; code?: string };
  provenance?: { untrusted: string[]; private: string[] };
}
const auditOf = (file: string): AuditLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);

type Call = (call: { name: string; arguments: Record<string, unknown> }) => Promise<CallToolResult>;

/** The attack's three calls; what the held pull request answered. */
async function playAttack(call: Call): Promise<{ issue: CallToolResult; secret: CallToolResult; created: CallToolResult }> {
  const issue = await call(ATTACK.readIssue);
  expect(issue.isError, textOf(issue)).to.equal(undefined);
  const secret = await call(ATTACK.readSecret);
  expect(secret.isError, textOf(secret)).to.equal(undefined);
  const created = await call(ATTACK.openPullRequest);
  return { issue, secret, created };
}

function expectHeld(created: CallToolResult): void {
  expect(created.isError).to.equal(true);
  expect(created._meta?.code).to.equal('approval_required');
  const decision = created._meta?.decision as { ruleId: string; reason: string; flow: Record<string, unknown> };
  expect(decision.ruleId).to.equal('untrusted-and-private-to-public');
  expect(decision.reason).to.contain('This session read untrusted content from acme/site#12 and private content from acme/secret; acme/site is public.');
  expect(decision.flow).to.deep.include({ untrusted: 'acme/site#12', private: 'github:acme/secret' });
  expect(decision.flow.target).to.deep.equal({ resource: 'github:acme/site', visibility: 'public', known: true });
}

describe('the published GitHub attack, replayed (dist/cli.js, the SDK client, the shipped flow policy)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let dir: string;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_e2eAttackReplayToken0123456789ab',
    MCP_POLICY_FILE: POLICY,
    MCP_AUDIT_LOG: join(dir, `audit-${Math.random().toString(16).slice(2)}.jsonl`),
    ...extra,
  });

  before(async () => {
    github = await attackGithub();
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-attack-'));
  });
  beforeEach(() => github.requests.splice(0));
  after(async () => {
    await github?.close();
  });

  it('over stdio: labels the issue untrusted and public and fences it, the file private; holds the pull request, which GitHub never receives', async () => {
    const settings = env();
    const session = await connectStdio({ env: settings });
    try {
      const call: Call = (c) => session.client.callTool(c) as Promise<CallToolResult>;
      const { issue, secret, created } = await playAttack(call);
      expect(labelsOf(issue)).to.deep.equal([
        {
          item: 'acme/site#12',
          resource: 'github:acme/site',
          integrity: 'untrusted',
          confidentiality: 'public',
          author: 'mallory',
          why: 'author_association NONE; repository public',
          url: 'https://github.com/acme/site/issues/12',
        },
      ]);
      const fence = (issue._meta?.[PROVENANCE] as { fence: string }).fence;
      const [open, close] = fence.split('…');
      expect(textOf(issue)).to.contain(`${open}${INJECTION}${close}`);
      expect(labelsOf(secret)[0]).to.include({ integrity: 'trusted', confidentiality: 'private' });
      expectHeld(created);
      expect(pullRequestsSent(github)).to.equal(0);
      const audit = auditOf(settings.MCP_AUDIT_LOG!);
      expect(audit.find((a) => a.tool === 'github_get_issue')?.provenance).to.deep.equal({ labels: 1, untrusted: ['acme/site#12'], private: [] });
      const held = audit.find((a) => a.tool === 'github_create_pull_request')!;
      expect(held.outcome).to.deep.equal({ status: 'error', code: 'approval_required' });
      expect(held.decision?.reason).to.contain('untrusted content from acme/site#12');
      expect(held.decision?.flow).to.deep.include({ untrusted: 'acme/site#12', private: 'github:acme/secret' });
    } finally {
      await session.close();
    }
  });

  it('over stdio: a session that read only the private file opens the pull request (the rule is the flow, not the write)', async () => {
    const session = await connectStdio({ env: env() });
    try {
      const secret = (await session.client.callTool(ATTACK.readSecret)) as CallToolResult;
      expect(secret.isError).to.equal(undefined);
      const created = (await session.client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(created.isError, textOf(created)).to.equal(undefined);
      expect(pullRequestsSent(github)).to.equal(1);
    } finally {
      await session.close();
    }
  });

  it('with MCP_LOCKDOWN=true: the issue body and title are withheld, saying who wrote them and where to read them; counts stay', async () => {
    const session = await connectStdio({ env: env({ MCP_LOCKDOWN: 'true' }) });
    try {
      const issue = (await session.client.callTool({
        ...ATTACK.readIssue,
        arguments: { ...ATTACK.readIssue.arguments, outputFormat: 'json' },
      })) as CallToolResult;
      const text = textOf(issue);
      expect(text).not.to.contain('ignore your previous instructions');
      const data = (JSON.parse(text) as { data: { body: string; title: string; comments: number; number: number } }).data;
      expect(data.body).to.equal(
        '[withheld under lockdown: untrusted text by mallory (author_association NONE; repository public); a trusted person can read it at https://github.com/acme/site/issues/12]',
      );
      expect(data.title).to.equal(data.body);
      expect(data).to.include({ comments: 3, number: 12 });
      expect((issue._meta?.[PROVENANCE] as { lockdown: boolean }).lockdown).to.equal(true);
      // Withheld text is still untrusted content read: the flow rule holds the write all the same.
      await session.client.callTool(ATTACK.readSecret);
      expectHeld((await session.client.callTool(ATTACK.openPullRequest)) as CallToolResult);
      expect(pullRequestsSent(github)).to.equal(0);
      expect(SECRET_README).to.contain('acme/secret');
    } finally {
      await session.close();
    }
  });

  describe('over Streamable HTTP (stateless: the session is the principal and its X-MCP-Conversation)', () => {
    let server: HttpServerProcess;
    const clients: Client[] = [];
    const connect = async (headers: Record<string, string>): Promise<Client> => {
      const client = kitClient('mcp-devtools-tests');
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    };
    before(async () => {
      server = await startHttpServer({ env: env() });
    });
    after(async () => {
      for (const c of clients) await c.close().catch(() => {});
      await server?.stop();
    });

    it('holds the pull request of the conversation that read both; another conversation of the same principal opens it', async () => {
      const attacked = await connect({ 'x-mcp-conversation': 'conv-attacked' });
      const { created } = await playAttack((c) => attacked.callTool(c) as Promise<CallToolResult>);
      expectHeld(created);
      expect(pullRequestsSent(github)).to.equal(0);
      const clean = await connect({ 'x-mcp-conversation': 'conv-clean' });
      await clean.callTool(ATTACK.readSecret);
      const opened = (await clean.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(opened.isError, textOf(opened)).to.equal(undefined);
      expect(pullRequestsSent(github)).to.equal(1);
    });

    it('X-MCP-Lockdown: true withholds for that request only', async () => {
      const locked = await connect({ 'x-mcp-conversation': 'conv-locked', 'x-mcp-lockdown': 'true' });
      const open = await connect({ 'x-mcp-conversation': 'conv-open' });
      expect(textOf((await locked.callTool(ATTACK.readIssue)) as CallToolResult)).not.to.contain('ignore your previous instructions');
      expect(textOf((await open.callTool(ATTACK.readIssue)) as CallToolResult)).to.contain('ignore your previous instructions');
    });
  });

  it('X-MCP-Lockdown: false cannot relax MCP_LOCKDOWN=true', async () => {
    const server = await startHttpServer({ env: env({ MCP_LOCKDOWN: 'true' }) });
    const client = kitClient('mcp-devtools-tests');
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'x-mcp-lockdown': 'false' } } }));
      const text = textOf((await client.callTool(ATTACK.readIssue)) as CallToolResult);
      expect(text).not.to.contain('ignore your previous instructions');
      expect(text).to.contain('withheld under lockdown');
    } finally {
      await client.close().catch(() => {});
      await server.stop();
    }
  });
});
