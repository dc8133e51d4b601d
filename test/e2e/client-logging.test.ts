// Log messages to the client from the built server's side, for a client of each era. A 2025-era client sets its
// level with logging/setLevel: over stdio it holds for the connection; over stateless Streamable HTTP, where
// every POST meets a fresh server, it holds for the principal that set it (the messages then come on the call's
// SSE stream), and no other principal is sent anything. A 2026-07-28 client (versionNegotiation auto) names the
// level in each request's `_meta` and is sent nothing for a request that names none.
import { LOG_LEVEL_META_KEY, type Client, type LoggingLevel, type LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { githubFixture } from '../fixtures/github/github-api.js';
import { tokensFileFolder } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess } from '../support/sdk-client.js';

const ARGS = { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 };
const LEGACY = { mode: 'legacy' } as const;
const AUTO = { mode: 'auto' } as const;

/** The levels of the messages one call leaves on `client`; `level`: the one its request names (2026-07-28). */
async function levelsOfCall(client: Client, level?: LoggingLevel): Promise<string[]> {
  const seen: LoggingMessageNotificationParams[] = [];
  client.setNotificationHandler('notifications/message', (notification) => void seen.push(notification.params));
  const result = await client.callTool({ name: 'github_get_pull_request', arguments: ARGS, ...(level && { _meta: { [LOG_LEVEL_META_KEY]: level } }) });
  expect(result.isError).to.equal(undefined);
  return seen.map((m) => m.level);
}

/**
 * A 2026-07-28 client: nothing without a level in the request, messages down to the one it names. (Its
 * logging/setLevel the SDK client refuses itself; the server's -32601 is in test/server/mcp/client-logging.test.ts.)
 */
async function expectPerRequestLevels(client: Client): Promise<void> {
  expect(client.getNegotiatedProtocolVersion()).to.equal('2026-07-28');
  expect(await levelsOfCall(client)).to.deep.equal([]);
  expect(await levelsOfCall(client, 'info')).to.deep.equal(['info']);
  expect(await levelsOfCall(client, 'debug')).to.deep.equal(['debug', 'info']);
  expect(await levelsOfCall(client)).to.deep.equal([]);
}

describe('log messages to the client (dist/cli.js, the SDK client of each era)', function () {
  this.timeout(60_000);
  let github: MockUpstream;
  const env = (): Record<string, string> => ({ GITHUB_API_URL: github.url, GITHUB_TOKEN: 'ghp_e2eLoggingToken0123456789' });

  before(async () => {
    github = await MockUpstream.start();
    github.on('GET', '/repos/octo-org/octo-repo/pulls/1347', { body: githubFixture('pull-request.json') });
  });
  after(async () => {
    await github?.close();
  });

  it('over stdio, 2025-11-25: nothing before logging/setLevel, then messages down to its level; the stderr log is not touched', async () => {
    const session = await connectStdio({ env: env(), versionNegotiation: LEGACY });
    try {
      expect(await levelsOfCall(session.client)).to.deep.equal([]);
      await session.client.setLoggingLevel('debug');
      expect(await levelsOfCall(session.client)).to.deep.equal(['debug', 'info']);
      // The operator's log keeps its own level (LOG_LEVEL, info by default): no debug line came of the client's choice.
      await session.waitForStderr('"msg":"tool call"');
      expect(session.stderr.filter((l) => l.includes('"level":20'))).to.deep.equal([]);
    } finally {
      await session.close();
    }
  });

  it('over stdio, 2026-07-28: messages down to the level each request names, none when it names none', async () => {
    const session = await connectStdio({ env: env(), versionNegotiation: AUTO });
    try {
      await expectPerRequestLevels(session.client);
    } finally {
      await session.close();
    }
  });

  describe('over Streamable HTTP, two principals (MCP_AUTH_MODE=tokens)', () => {
    const alice = canary('mcp-alice-');
    const bob = canary('mcp-bob-');
    let server: HttpServerProcess;

    before(async () => {
      const tokens = tokensFileFolder('client-logging-', [
        { token: alice, subject: 'alice' },
        { token: bob, subject: 'bob' },
      ]);
      server = await startHttpServer({ cwd: tokens.dir, env: { ...env(), ...tokens.env } });
    });
    after(async () => {
      for (const line of server?.stderr ?? []) leakAudit.transcript('HTTP server stderr', line);
      await server?.stop();
    });

    it("2025-11-25: holds a principal's level for its later calls, each a POST of its own, and for no one else", async () => {
      const first = await connectHttp(server.url, alice, LEGACY);
      await first.setLoggingLevel('info');
      await first.close();
      // A new connection of the same principal: the level it set before still holds.
      const again = await connectHttp(server.url, alice, LEGACY);
      const other = await connectHttp(server.url, bob, LEGACY);
      try {
        expect(await levelsOfCall(again)).to.deep.equal(['info']);
        expect(await levelsOfCall(other)).to.deep.equal([]);
        await again.setLoggingLevel('emergency');
        expect(await levelsOfCall(again)).to.deep.equal([]);
      } finally {
        await again.close();
        await other.close();
      }
    });

    it("2026-07-28: the messages a request's level asks for come on its stream; a level set in the 2025 way does not reach it", async () => {
      // Alice's 2025-era level (set above, or here) is for 2025-era calls only: a 2026-07-28 request names its own.
      const legacy = await connectHttp(server.url, alice, LEGACY);
      await legacy.setLoggingLevel('debug');
      await legacy.close();
      const client = await connectHttp(server.url, alice, AUTO);
      try {
        await expectPerRequestLevels(client);
      } finally {
        await client.close();
      }
    });
  });
});
