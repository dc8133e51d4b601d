// The `confirm` policy effect, from the outside: the shipped flow policy (examples/policies/untrusted-content.yaml)
// asks the person, through form-mode elicitation, before a session that read untrusted and private content
// writes to a public place. The official v2 client over real stdio to the built server, GitHub a loopback mock.
// 2026-07-28 clients are asked through input_required instead: confirm-input-required.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { isolatedEnv } from '../../../server/testing/stdio-server.js';
import { ATTACK, attackGithub } from '../../support/attack-github.js';
import { CLI_PATH, REPO_ROOT } from '../../support/paths.js';
import { startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';

const POLICY = resolve(REPO_ROOT, 'examples/policies/untrusted-content.yaml');
const RULE = 'untrusted-and-private-to-public';
const FLOW = 'This session read untrusted content from acme/site#12 and private content from acme/secret; acme/site is public.';

interface Asked {
  mode?: string;
  message?: string;
  requestedSchema?: unknown;
}
interface AuditLine {
  tool: string;
  decision: { effect: string; ruleId: string; confirmation?: { answer: string; by: string } } | null;
  outcome: { status: string; code?: string };
}

const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;
const pullRequestsSent = (github: MockUpstream): number => github.requests.filter((r) => r.method === 'POST').length;
const auditOf = (file: string): AuditLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);

describe('the confirm effect: a flow rule asks the person through form-mode elicitation (stdio, the official v2 client)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  let dir: string;
  const clients: Client[] = [];

  before(async () => {
    github = await attackGithub();
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-confirm-'));
  });
  beforeEach(() => github.requests.splice(0));
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await github?.close();
  });

  const settings = (): Record<string, string> => ({
    MCP_TOOLSETS: 'all',
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_confirmEffectTestToken0123456789ab',
    MCP_POLICY_FILE: POLICY,
    MCP_AUDIT_LOG: join(dir, `audit-${Math.random().toString(16).slice(2)}.jsonl`),
  });

  /** The attack's reads, then the pull request, from a client that takes form elicitation (answering `answer`) or not. */
  async function attack(options: {
    elicitation?: ClientOptions['capabilities'];
    answer?: 'accept' | 'decline' | 'cancel';
    negotiation?: ClientOptions['versionNegotiation'];
  }): Promise<{ created: CallToolResult; asked: Asked[]; audit: AuditLine[] }> {
    const asked: Asked[] = [];
    const env = settings();
    const client = new Client(
      { name: 'confirm-tests', version: '1.0.0' },
      { versionNegotiation: options.negotiation ?? { mode: 'legacy' }, capabilities: options.elicitation ?? {} },
    );
    if (options.elicitation?.elicitation !== undefined)
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as Asked);
        return options.answer === 'accept' ? { action: 'accept', content: {} } : { action: options.answer ?? 'accept' };
      });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH], env: isolatedEnv(env), stderr: 'pipe' }));
    for (const read of [ATTACK.readIssue, ATTACK.readSecret]) {
      const result = (await client.callTool(read)) as CallToolResult;
      expect(result.isError, textOf(result)).to.equal(undefined);
    }
    expect(asked, 'reads are allowed without asking').to.have.length(0);
    const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
    await client.close();
    return { created, asked, audit: auditOf(env.MCP_AUDIT_LOG!) };
  }

  it('asks a yes or no naming the reason, the call and its target; on accept GitHub receives the pull request and the audit says confirmed', async () => {
    const { created, asked, audit } = await attack({ elicitation: { elicitation: { form: {} } }, answer: 'accept' });
    expect(created.isError, textOf(created)).to.equal(undefined);
    expect(pullRequestsSent(github)).to.equal(1);
    expect(asked).to.have.length(1);
    expect(asked[0]!.mode).to.equal('form');
    expect(asked[0]!.message).to.contain(FLOW);
    expect(asked[0]!.message).to.contain('Let github_create_pull_request (POST /repos/acme/site/pulls) run for');
    expect(asked[0]!.message!.endsWith('?')).to.equal(true);
    const confirmation = created._meta?.['mcp-devtools/confirmation'] as { effect: string; ruleId: string; confirmation: { answer: string } };
    expect(confirmation).to.include({ effect: 'confirm', ruleId: RULE });
    expect(confirmation.confirmation.answer).to.equal('accept');
    const line = audit.find((a) => a.tool === 'github_create_pull_request')!;
    expect(line.outcome).to.deep.equal({ status: 'ok' });
    expect(line.decision).to.include({ effect: 'confirm', ruleId: RULE });
    expect(line.decision!.confirmation).to.include({ answer: 'accept' });
  });

  it('refuses the call when the person declines, saying so, and GitHub receives nothing', async () => {
    const { created, asked, audit } = await attack({ elicitation: { elicitation: { form: {} } }, answer: 'decline' });
    expect(asked).to.have.length(1);
    expect(created.isError).to.equal(true);
    expect(created._meta?.code).to.equal('policy_denied');
    expect(textOf(created)).to.contain(
      'github_create_pull_request (POST /repos/acme/site/pulls) was not run: the person was asked to confirm it and declined, so nothing was sent.',
    );
    expect(pullRequestsSent(github)).to.equal(0);
    const line = audit.find((a) => a.tool === 'github_create_pull_request')!;
    expect(line.outcome).to.deep.equal({ status: 'error', code: 'policy_denied' });
    expect(line.decision!.confirmation).to.include({ answer: 'decline' });
  });

  it('refuses a cancelled question as a decline', async () => {
    const { created } = await attack({ elicitation: { elicitation: {} }, answer: 'cancel' });
    expect(created._meta?.code).to.equal('policy_denied');
    expect(textOf(created)).to.contain('the person was asked to confirm it and did not answer (cancelled), so nothing was sent.');
    expect(pullRequestsSent(github)).to.equal(0);
  });

  it('holds the call for an approver, as approval_required, when the client does not take elicitation: nothing weakens', async () => {
    const { created, asked } = await attack({});
    expect(asked).to.have.length(0);
    expect(created._meta?.code).to.equal('approval_required');
    expect((created._meta?.decision as { reason: string }).reason).to.contain('cannot ask the person to confirm');
    expect(pullRequestsSent(github)).to.equal(0);
  });

  it('holds the call when the client takes URL-mode elicitation only (a URL is not a yes or no)', async () => {
    const { created, asked } = await attack({ elicitation: { elicitation: { url: {} } } });
    expect(asked).to.have.length(0);
    expect(created._meta?.code).to.equal('approval_required');
    expect(pullRequestsSent(github)).to.equal(0);
  });

  describe('over Streamable HTTP (stateless)', () => {
    let server: HttpServerProcess;
    before(async () => {
      server = await startHttpServer({ env: settings() });
    });
    after(async () => {
      await server?.stop();
    });

    it('holds the call of a 2025-era client that declares form elicitation: a stateless POST cannot carry the question', async () => {
      const asked: Asked[] = [];
      const client = new Client(
        { name: 'confirm-tests', version: '1.0.0' },
        { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as Asked);
        return { action: 'accept', content: {} };
      });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'x-mcp-conversation': 'conv-confirm' } } }));
      await client.callTool(ATTACK.readIssue);
      await client.callTool(ATTACK.readSecret);
      const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(asked).to.have.length(0);
      expect(created._meta?.code).to.equal('approval_required');
      expect(pullRequestsSent(github)).to.equal(0);
    });
  });
});
