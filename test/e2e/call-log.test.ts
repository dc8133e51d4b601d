// The operator's view of a running server: one JSON line per tool call on stderr, saying what was called, what
// was sent upstream and how it ended, never a query value or a secret; stage timings at debug; refused HTTP
// requests logged with their reason and never the token; every line JSON, the "listening on" line included.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileFolder } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { runCli } from '../support/run-cli.js';
import { connectStdio, startHttpServer, type HttpServerProcess, type StdioSession } from '../support/sdk-client.js';

type LogLine = Record<string, unknown> & { msg: string; level: number };

const parse = (lines: readonly string[]): LogLine[] => lines.map((l) => JSON.parse(l) as LogLine);
const callLines = (lines: readonly string[]): LogLine[] => parse(lines).filter((l) => l.msg === 'tool call');

/** Waits until `count` tool-call lines have arrived (stderr is a pipe of its own, behind the results). */
async function waitForCallLines(stderr: readonly string[], count: number): Promise<LogLine[]> {
  for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 10))) {
    const lines = callLines(stderr);
    if (lines.length >= count) return lines;
    if (Date.now() > deadline) throw new Error(`${lines.length} tool call lines after 5 s:\n${stderr.join('\n')}`);
  }
}

describe('the log line of every tool call (dist/cli.js over stdio)', () => {
  const secrets = { circleci: canary('CCIPAT_'), atlassian: canary('ATATT3x') };
  // Query values are no secret the server knows, but they must not reach a log line either.
  const queryValue = `query-value-${randomBytes(8).toString('hex')}`;
  let circleci: MockUpstream;
  let jira: MockUpstream;
  let session: StdioSession;

  before(async () => {
    circleci = await MockUpstream.start();
    jira = await MockUpstream.start();
    session = await connectStdio({
      env: {
        LOG_LEVEL: 'debug',
        CIRCLECI_BASE_URL: circleci.url,
        CIRCLECI_TOKEN: secrets.circleci,
        JIRA_BASE_URL: jira.url,
        ATLASSIAN_USER_EMAIL: 'bot@example.com',
        ATLASSIAN_API_TOKEN: secrets.atlassian,
      },
    });
  });
  after(async () => {
    for (const line of session?.stderr ?? []) leakAudit.transcript('stdio server stderr', line);
    await session?.close();
    await circleci?.close();
    await jira?.close();
  });

  it('logs tool, vendor, method, path as sent, outcome, status, duration, principal, cache hit and result bytes', async () => {
    // A project's settings, not its pipeline list: that one is a status path, never cached.
    circleci.on('GET', '/api/v2/project/gh/acme/api/checkout-key', {
      body: { items: [{ type: 'deploy-key', preferred: true }] },
      headers: { 'cache-control': 'max-age=60' },
    });
    const args = { path: '/project/gh/acme/api/checkout-key', queryParams: { branch: queryValue } };
    const first = await session.client.callTool({ name: 'circleci_get', arguments: args });
    const second = await session.client.callTool({ name: 'circleci_get', arguments: args });
    const [miss, hit] = await waitForCallLines(session.stderr, 2);
    const text = (first.content as Array<{ text: string }>)[0]!.text;
    expect(miss).to.deep.include({
      level: 30,
      tool: 'circleci_get',
      vendor: 'circleci',
      method: 'GET',
      path: '/api/v2/project/gh/acme/api/checkout-key',
      query: ['branch'],
      outcome: 'ok',
      upstreamStatus: 200,
      principal: 'local',
      cacheHit: false,
      resultBytes: Buffer.byteLength(text, 'utf8'),
    });
    expect(miss!.durationMs).to.be.a('number').and.to.be.greaterThan(0);
    expect(hit).to.deep.include({ tool: 'circleci_get', outcome: 'ok', upstreamStatus: 200, cacheHit: true });
    expect(second.isError).to.equal(undefined);
    expect(circleci.requests).to.have.length(1);
  });

  it('logs an upstream error with its code and status, and a refused argument before any request', async () => {
    jira.on('GET', '/rest/api/3/search/jql', { status: 401, body: { errorMessages: ['Client must be authenticated'] } });
    await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/search/jql', queryParams: { jql: `text ~ "${queryValue}"` } } });
    await session.client.callTool({ name: 'jira_get', arguments: { path: 42 } });
    const lines = await waitForCallLines(session.stderr, 4);
    expect(lines[2]).to.deep.include({
      // A 401 is the operator's to fix (the credential): warn, not info.
      level: 40,
      tool: 'jira_get',
      vendor: 'jira',
      method: 'GET',
      path: '/rest/api/3/search/jql',
      query: ['jql'],
      outcome: 'upstream_http_error',
      upstreamStatus: 401,
      cacheHit: null,
    });
    expect(lines[3]).to.deep.include({
      level: 30,
      tool: 'jira_get',
      vendor: 'jira',
      method: null,
      path: null,
      outcome: 'invalid_arguments',
      upstreamStatus: null,
    });
  });

  it('gives the time of each stage at debug', async () => {
    const stages = parse(session.stderr).filter((l) => l.msg === 'tool call stages');
    expect(stages.length).to.be.at.least(3);
    expect(stages[0]).to.have.property('tool', 'circleci_get');
    expect(Object.keys(stages[0]!.stagesMs as object)).to.include.members(['envelope', 'validate', 'upstream', 'render']);
  });

  it('never writes a query value or a configured secret, and writes only JSON', () => {
    const all = session.stderr.join('\n');
    expect(all).not.to.contain(queryValue);
    expect(all).not.to.contain(secrets.circleci);
    expect(all).not.to.contain(secrets.atlassian);
    for (const line of session.stderr) expect(() => JSON.parse(line), line).not.to.throw();
  });

  it('keeps stage timings out of the default level', async () => {
    const mock = await MockUpstream.start();
    try {
      mock.on('GET', '/api/v2/me', { body: { login: 'bot' } });
      // `call` writes the server's log lines only when asked (--verbose): a person gets the result alone.
      const ran = await runCli(['call', 'circleci_get', '{"path":"/me"}', '--verbose'], {
        env: { CIRCLECI_BASE_URL: mock.url, CIRCLECI_TOKEN: secrets.circleci },
      });
      const lines = ran.stderr.split('\n').filter(Boolean);
      leakAudit.transcript('call command stderr', ran.stderr);
      expect(callLines(lines)).to.have.length(1);
      expect(parse(lines).map((l) => l.msg)).not.to.include('tool call stages');
    } finally {
      await mock.close();
    }
  });
});

describe('the result bytes of a call line with structured output on', () => {
  let jira: MockUpstream;
  let session: StdioSession;

  before(async () => {
    jira = await MockUpstream.start();
    session = await connectStdio({
      env: {
        LOG_LEVEL: 'info',
        MCP_STRUCTURED_OUTPUT: 'true',
        MCP_STRUCTURED_MAX_BYTES: '16384',
        JIRA_BASE_URL: jira.url,
        ATLASSIAN_USER_EMAIL: 'bot@example.com',
        ATLASSIAN_API_TOKEN: canary('ATATT3x'),
      },
    });
  });
  after(async () => {
    await session?.close();
    await jira?.close();
  });

  // The bytes of the structured value are counted by the stage that bounds its size and reused by the call
  // line: within the bound (the value itself) and over it (the value saved, metadata and `incomplete` sent).
  it('counts the text and the structured value as the client receives them, within the bound and over it', async () => {
    const issue = (n: number) => ({ key: `ACME-${n}`, fields: { summary: `Issue ${n} \u00e9t\u00e9 \ud83d\ude00`, labels: ['a', 'b'] } });
    jira.on('GET', '/rest/api/3/issue/ACME-1', { body: issue(1) });
    jira.on('GET', '/rest/api/3/search/jql', { body: { issues: Array.from({ length: 300 }, (_, n) => issue(n)) } });
    const results = [
      await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/issue/ACME-1' } }),
      await session.client.callTool({ name: 'jira_get', arguments: { path: '/rest/api/3/search/jql' } }),
    ];
    const lines = await waitForCallLines(session.stderr, 2);
    const spilled = results[1]!.structuredContent as { incomplete?: { reason: string } };
    expect(spilled.incomplete?.reason).to.equal('size');
    results.forEach((result, i) => {
      // The text blocks: the resource_link the MCP server appends to a spilled result (the artifact as a
      // resource) is the protocol's addition, not the tool's answer the call line measures.
      const blocks = result.content as Array<{ type: string; text?: string }>;
      expect(blocks.filter((b) => b.type !== 'text').map((b) => b.type)).to.deep.equal(i === 1 ? ['resource_link'] : []);
      const text = blocks.reduce((n, block) => n + (block.type === 'text' ? Buffer.byteLength(block.text!, 'utf8') : 0), 0);
      expect(result.structuredContent).to.be.an('object');
      expect(lines[i]!.resultBytes).to.equal(text + Buffer.byteLength(JSON.stringify(result.structuredContent), 'utf8'));
    });
  });
});

describe('HTTP server logs (dist/cli.js --transport http)', () => {
  const good = canary('mcp-caller-');
  const wrong = canary('mcp-wrong-');
  let server: HttpServerProcess;

  before(async () => {
    const { dir, env } = tokensFileFolder('http-logs-', [{ token: good, subject: 'alice' }]);
    server = await startHttpServer({ cwd: dir, env: { ...env, LOG_LEVEL: 'warn' } });
  });
  after(async () => {
    for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
    await server?.stop();
  });

  it('writes "listening on" as a JSON line, even when LOG_LEVEL hides info', () => {
    const listening = parse(server.stderr).find((l) => l.msg.startsWith('listening on '));
    expect(listening).to.deep.include({ name: 'mcp-devtools', url: server.url, msg: `listening on ${server.url}` });
  });

  it('logs a refused request with its reason, and never the token it carried', async () => {
    const post = (token?: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post(wrong)).status).to.equal(401);
    expect((await post()).status).to.equal(401);
    for (const deadline = Date.now() + 5000; parse(server.stderr).filter((l) => l.msg === 'HTTP authentication failed').length < 2 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const failures = parse(server.stderr).filter((l) => l.msg === 'HTTP authentication failed');
    expect(failures).to.have.length(2);
    expect(failures[0]).to.deep.include({ level: 40, method: 'POST', path: '/mcp', status: 401, reason: 'the bearer token is not recognised.' });
    expect(failures[1]!.reason).to.contain('a bearer token is required');
    expect(failures[0]!.remoteAddress).to.be.a('string');
    expect(server.stderr.join('\n')).not.to.contain(wrong);
    for (const line of server.stderr) expect(() => JSON.parse(line), line).not.to.throw();
  });
});
