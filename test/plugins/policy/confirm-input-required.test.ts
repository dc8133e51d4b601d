// The `confirm` policy effect for 2026-07-28 clients, from the outside: that revision has no server-to-client
// requests, so the question is the call's `input_required` answer (a form elicitation and a signed requestState),
// and the client retries the call with the person's answer. The official v2 client over real stdio and Streamable
// HTTP to the built server, GitHub a loopback mock; the attacks answer by hand and never reach GitHub.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { isolatedEnv } from '../../../server/testing/stdio-server.js';
import { ATTACK, attackGithub } from '../../support/attack-github.js';
import { tokensFileYaml } from '../../support/auth-fixture.js';
import { CLI_PATH, REPO_ROOT } from '../../support/paths.js';
import { startHttpServer, type HttpServerProcess } from '../../support/sdk-client.js';

const POLICY = resolve(REPO_ROOT, 'examples/policies/untrusted-content.yaml');
const RULE = 'untrusted-and-private-to-public';
const FLOW = 'This session read untrusted content from acme/site#12 and private content from acme/secret; acme/site is public.';
const CONFIRM_INPUT = 'confirm-call';
const COMMENT = { name: 'github_add_comment', arguments: { owner: 'acme', repo: 'site', issueNumber: 12, body: 'Thanks, looking into it.' } };

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
/** A `tools/call` answer as the wire carries it: a result, or `input_required`. */
interface Answered extends Partial<CallToolResult> {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: Asked }>;
  requestState?: string;
}
type CallParams = { name: string; arguments: Record<string, unknown> };

const textOf = (result: Partial<CallToolResult>): string => (result.content?.[0] as { text: string }).text;
const writesSent = (github: MockUpstream): number => github.requests.filter((r) => r.method === 'POST').length;
const auditOf = (file: string): AuditLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);

/** The same state with one character of its signed body changed. */
function tampered(state: string): string {
  const [version, body, mac] = state.split('.') as [string, string, string];
  const at = Math.floor(body.length / 2);
  const flipped = body[at] === 'A' ? 'B' : 'A';
  return `${version}.${body.slice(0, at)}${flipped}${body.slice(at + 1)}.${mac}`;
}

describe('the confirm effect for 2026-07-28 clients: input_required with a signed requestState (the official v2 client)', function () {
  this.timeout(90_000);
  let github: MockUpstream;
  let dir: string;
  const clients: Client[] = [];

  before(async () => {
    github = await attackGithub();
    github.on('GET', '/repos/acme/site/issues/12/comments', { body: [] });
    github.on('POST', '/repos/acme/site/issues/12/comments', {
      status: 201,
      body: { id: 1, body: 'Thanks, looking into it.', html_url: 'https://github.com/acme/site/issues/12#issuecomment-1' },
    });
    dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-confirm-2026-'));
  });
  beforeEach(() => github.requests.splice(0));
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await github?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settings = (extra: Record<string, string> = {}): Record<string, string> => ({
    MCP_TOOLSETS: 'all',
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: 'ghp_confirmEffectTestToken0123456789ab',
    MCP_POLICY_FILE: POLICY,
    MCP_AUDIT_LOG: join(dir, `audit-${Math.random().toString(16).slice(2)}.jsonl`),
    ...extra,
  });

  /** A v2 client negotiating 2026-07-28, answering form elicitation with `answer` (by hand when `manual`). */
  function clientOf(options: { capabilities?: ClientOptions['capabilities']; answer?: 'accept' | 'decline' | 'cancel'; manual?: boolean }): {
    client: Client;
    asked: Asked[];
  } {
    const asked: Asked[] = [];
    const client = new Client(
      { name: 'confirm-2026-tests', version: '1.0.0' },
      {
        versionNegotiation: { mode: 'auto' },
        capabilities: options.capabilities ?? { elicitation: { form: {} } },
        ...(options.manual === true && { inputRequired: { autoFulfill: false } }),
      },
    );
    if ((options.capabilities ?? { elicitation: {} }).elicitation !== undefined)
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as Asked);
        return options.answer === 'accept' || options.answer === undefined ? { action: 'accept', content: {} } : { action: options.answer };
      });
    clients.push(client);
    return { client, asked };
  }

  async function overStdio(client: Client, env: Record<string, string>): Promise<void> {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH], env: isolatedEnv(env), stderr: 'pipe' }));
    expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
  }

  /** The attack's two reads, which make the session's later write to a public place a confirm rule's. */
  async function readBoth(client: Client): Promise<void> {
    for (const read of [ATTACK.readIssue, ATTACK.readSecret]) {
      const result = (await client.callTool(read)) as CallToolResult;
      expect(result.isError, textOf(result)).to.equal(undefined);
    }
  }

  /** One round by hand: the call as sent, `input_required` handed back rather than fulfilled. */
  const round = async (client: Client, params: CallParams, retry?: { action: string; state?: string }): Promise<Answered> =>
    (await client.request(
      {
        method: 'tools/call',
        params: {
          ...params,
          ...(retry !== undefined && { inputResponses: { [CONFIRM_INPUT]: { action: retry.action, ...(retry.action === 'accept' && { content: {} }) } } }),
          ...(retry?.state !== undefined && { requestState: retry.state }),
        },
      },
      { allowInputRequired: true },
    )) as Answered;

  /** A first round: the question and its state, the call not run. */
  async function question(client: Client, params: CallParams = ATTACK.openPullRequest as unknown as CallParams): Promise<{ asked: Asked; state: string }> {
    const answered = await round(client, params);
    expect(answered.resultType, JSON.stringify(answered)).to.equal('input_required');
    expect(writesSent(github)).to.equal(0);
    return { asked: answered.inputRequests![CONFIRM_INPUT]!.params, state: answered.requestState! };
  }

  /** The call was asked again (a new question, a new state), and nothing was sent to GitHub. */
  function askedAgain(answered: Answered, previous: string): void {
    expect(answered.resultType, JSON.stringify(answered)).to.equal('input_required');
    expect(answered.inputRequests).to.have.key(CONFIRM_INPUT);
    expect(answered.requestState).to.be.a('string').and.not.equal(previous);
    expect(writesSent(github), 'GitHub received no write').to.equal(0);
  }

  describe('over stdio, the client fulfilling input_required itself (versionNegotiation auto)', () => {
    it('asks a yes or no naming the reason, the call and its target; on accept GitHub receives the pull request once, and _meta and the audit say the person confirmed', async () => {
      const env = settings();
      const { client, asked } = clientOf({ answer: 'accept' });
      await overStdio(client, env);
      await readBoth(client);
      expect(asked, 'reads are allowed without asking').to.have.length(0);
      const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(created.isError, textOf(created)).to.equal(undefined);
      expect(writesSent(github)).to.equal(1);
      expect(asked).to.have.length(1);
      expect(asked[0]!.mode).to.equal('form');
      expect(asked[0]!.message).to.contain(FLOW);
      expect(asked[0]!.message).to.contain('Let github_create_pull_request (POST /repos/acme/site/pulls) run for local?');
      // The question names the call, never its arguments: the private README the body carries is not in it.
      expect(asked[0]!.message).to.not.contain('Production database');
      const confirmation = created._meta?.['mcp-devtools/confirmation'] as { effect: string; ruleId: string; confirmation: { answer: string; by: string } };
      expect(confirmation).to.include({ effect: 'confirm', ruleId: RULE });
      expect(confirmation.confirmation).to.include({ answer: 'accept', by: 'local' });
      await client.close();
      const lines = auditOf(env.MCP_AUDIT_LOG!).filter((a) => a.tool === 'github_create_pull_request');
      expect(lines.map((l) => l.outcome)).to.deep.equal([{ status: 'error', code: 'confirmation_required' }, { status: 'ok' }]);
      expect(lines[0]!.decision).to.include({ effect: 'confirm', ruleId: RULE });
      expect(lines[0]!.decision!.confirmation).to.equal(undefined);
      expect(lines[1]!.decision!.confirmation).to.include({ answer: 'accept', by: 'local' });
    });

    it('refuses the call when the person declines, with the decision in _meta, and GitHub receives nothing', async () => {
      const env = settings();
      const { client, asked } = clientOf({ answer: 'decline' });
      await overStdio(client, env);
      await readBoth(client);
      const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(asked).to.have.length(1);
      expect(created.isError).to.equal(true);
      expect(created._meta?.code).to.equal('policy_denied');
      expect((created._meta?.decision as { confirmation: { answer: string } }).confirmation.answer).to.equal('decline');
      expect(textOf(created)).to.contain('was not run: the person was asked to confirm it and declined, so nothing was sent.');
      expect(writesSent(github)).to.equal(0);
      await client.close();
      const last = auditOf(env.MCP_AUDIT_LOG!)
        .filter((a) => a.tool === 'github_create_pull_request')
        .at(-1)!;
      expect(last.outcome).to.deep.equal({ status: 'error', code: 'policy_denied' });
    });

    it('refuses a cancelled question as a decline', async () => {
      const { client } = clientOf({ answer: 'cancel' });
      await overStdio(client, settings());
      await readBoth(client);
      const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(created._meta?.code).to.equal('policy_denied');
      expect(textOf(created)).to.contain('did not answer (cancelled), so nothing was sent.');
      expect(writesSent(github)).to.equal(0);
    });

    for (const [which, capabilities] of [
      ['no elicitation', {}],
      ['URL-mode elicitation only', { elicitation: { url: {} } }],
    ] as const) {
      it(`holds the call for an approver when the client declares ${which}: nothing weakens`, async () => {
        const { client, asked } = clientOf({ capabilities });
        await overStdio(client, settings());
        await readBoth(client);
        const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
        expect(asked).to.have.length(0);
        expect(created._meta?.code).to.equal('approval_required');
        expect((created._meta?.decision as { reason: string }).reason).to.contain('cannot ask the person to confirm');
        expect(writesSent(github)).to.equal(0);
      });
    }
  });

  describe('attacks on the requestState over stdio (the client answers by hand): none reaches GitHub', () => {
    let client: Client;
    before(async () => {
      ({ client } = clientOf({ manual: true }));
      await overStdio(client, settings({ MCP_CONFIRMATION_TTL_SECONDS: '3' }));
      await readBoth(client);
    });

    it('a question carries a form elicitation with nothing to fill and a state that holds no name and no argument', async () => {
      const { asked, state } = await question(client);
      expect(asked).to.deep.include({ mode: 'form', requestedSchema: { type: 'object', properties: {} } });
      expect(asked.message).to.contain(FLOW);
      const decoded = Buffer.from(state.split('.')[1]!, 'base64url').toString('utf8');
      for (const clear of ['local', 'github_create_pull_request', 'acme', 'Production database', RULE]) expect(decoded).to.not.contain(clear);
    });

    it('a forged state (its signed body changed, or made up) is not an answer: the person is asked again', async () => {
      const { state } = await question(client);
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state: tampered(state) }), state);
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state: 'c1.e30.AAAA' }), state);
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state: `${state.slice(0, -2)}xx` }), state);
    });

    it('an accept without a state is not an answer', async () => {
      const { state } = await question(client);
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept' }), state);
    });

    it('a state asked for one set of arguments does not confirm others, and stays good for its own', async () => {
      const { state } = await question(client);
      const other = { ...ATTACK.openPullRequest, arguments: { ...ATTACK.openPullRequest.arguments, title: 'Something else', base: 'release' } };
      askedAgain(await round(client, other as unknown as CallParams, { action: 'accept', state }), state);
      // The mismatch did not use the state up: its own call still runs on it, once.
      const own = await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state });
      expect(own.resultType).to.not.equal('input_required');
      expect(own.isError, textOf(own)).to.equal(undefined);
      expect(writesSent(github)).to.equal(1);
    });

    it('a state asked for one tool does not confirm another tool the rule also asks about', async () => {
      const { state } = await question(client);
      const commented = await question(client, COMMENT);
      expect(commented.asked.message).to.contain('github_add_comment');
      askedAgain(await round(client, COMMENT, { action: 'accept', state }), commented.state);
    });

    it('a state used for an accept cannot be replayed: the second retry is asked again, GitHub got one pull request', async () => {
      const { state } = await question(client);
      const ran = await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state });
      expect(ran.isError, textOf(ran)).to.equal(undefined);
      expect(writesSent(github)).to.equal(1);
      github.requests.splice(0);
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state }), state);
    });

    it('a state past MCP_CONFIRMATION_TTL_SECONDS is not taken: the person is asked again', async () => {
      const { state } = await question(client);
      await new Promise((r) => setTimeout(r, 3_300));
      askedAgain(await round(client, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state }), state);
    });
  });

  describe('over Streamable HTTP, two principals', () => {
    const TOKENS = { alice: 'tok-alice-confirms-7f2b19c4', bob: 'tok-bob-confirms-3e8d5a01' };
    let server: HttpServerProcess;
    before(async () => {
      const tokens = join(dir, 'tokens.yaml');
      writeFileSync(tokens, tokensFileYaml(Object.entries(TOKENS).map(([subject, token]) => ({ token, subject }))));
      server = await startHttpServer({ env: settings({ MCP_AUTH_MODE: 'tokens', MCP_AUTH_TOKENS_FILE: tokens }) });
    });
    after(async () => {
      await server?.stop();
    });

    async function overHttp(client: Client, token: string): Promise<void> {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${token}`, 'x-mcp-conversation': 'conv-confirm-2026' } },
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
    }

    it("asks and, on accept, runs the call for the principal who was asked (the client's own retry)", async () => {
      const { client, asked } = clientOf({ answer: 'accept' });
      await overHttp(client, TOKENS.alice);
      await readBoth(client);
      const created = (await client.callTool(ATTACK.openPullRequest)) as CallToolResult;
      expect(created.isError, textOf(created)).to.equal(undefined);
      expect(asked).to.have.length(1);
      expect(asked[0]!.message).to.contain('run for alice?');
      expect((created._meta?.['mcp-devtools/confirmation'] as { confirmation: { by: string } }).confirmation.by).to.equal('alice');
      expect(writesSent(github)).to.equal(1);
    });

    it("another principal cannot confirm with alice's state: bob is asked himself, and GitHub receives nothing", async () => {
      const alice = clientOf({ manual: true }).client;
      await overHttp(alice, TOKENS.alice);
      await readBoth(alice);
      const { state } = await question(alice);
      const bob = clientOf({ manual: true }).client;
      await overHttp(bob, TOKENS.bob);
      await readBoth(bob);
      const answered = await round(bob, ATTACK.openPullRequest as unknown as CallParams, { action: 'accept', state });
      askedAgain(answered, state);
      expect(answered.inputRequests![CONFIRM_INPUT]!.params.message).to.contain('run for bob?');
    });
  });
});
