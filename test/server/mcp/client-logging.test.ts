// notifications/message to the client, in-process with the official SDK client: a 2025-era client chooses the
// least severe level it is sent with logging/setLevel (nothing until it does); a 2026-07-28 client names it in
// each request's `_meta`, and logging/setLevel no longer exists for it.
import type { Client, LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { githubFixture } from '../../fixtures/github/github-api.js';
import { WireExchange } from '../../golden/wire-exchange.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const PULL = '/repos/octo-org/octo-repo/pulls/1347';
const ARGS = { owner: 'octo-org', repo: 'octo-repo', pullNumber: 1347 };

/** A client that keeps every notifications/message it is sent. */
function listening(client: Client): LoggingMessageNotificationParams[] {
  const seen: LoggingMessageNotificationParams[] = [];
  client.setNotificationHandler('notifications/message', (notification) => void seen.push(notification.params));
  return seen;
}

/** The messages a call leaves, once it has answered (they come before the result, on the same channel). */
async function messagesOf(
  client: Client,
  seen: LoggingMessageNotificationParams[],
  args: Record<string, unknown> = ARGS,
): Promise<LoggingMessageNotificationParams[]> {
  seen.length = 0;
  await client.callTool({ name: 'github_get_pull_request', arguments: args });
  return [...seen];
}

describe('logging: notifications/message at the level the client chose (in-process, the SDK client)', () => {
  const t = useVendorKernel({ plugins: ['github'], env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_loggingToken0123456789' }) });
  beforeEach(() => {
    t.mock.on('GET', PULL, { body: githubFixture('pull-request.json') });
    t.mock.on('GET', '/repos/octo-org/octo-repo/pulls/9', { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } });
  });

  describe('a 2025-era client (logging/setLevel)', () => {
    let client: Client;
    let seen: LoggingMessageNotificationParams[];
    beforeEach(async () => {
      client = await t.kernel.connect({ mode: 'legacy' });
      seen = listening(client);
    });

    it('is told the server logs, and is sent nothing until it sets a level', async () => {
      expect(client.getServerCapabilities()?.logging).to.deep.equal({});
      expect(await messagesOf(client, seen)).to.deep.equal([]);
    });

    it('at info: one message when a call answers, with the tool, the outcome and the duration', async () => {
      expect(await client.setLoggingLevel('info')).to.deep.equal({});
      const [message, ...more] = await messagesOf(client, seen);
      expect(more).to.deep.equal([]);
      expect(message).to.deep.include({ level: 'info', logger: 'mcp-devtools' });
      const data = message!.data as { message: string; tool: string; outcome: string; durationMs: number };
      expect(data).to.deep.include({ tool: 'github_get_pull_request', outcome: 'ok' });
      expect(data.message).to.equal(`github_get_pull_request answered in ${data.durationMs} ms`);
    });

    it('at info: a warning with the error code and its first line when a call ends in an error', async () => {
      await client.setLoggingLevel('info');
      const [message] = await messagesOf(client, seen, { ...ARGS, pullNumber: 9 });
      expect(message).to.deep.include({ level: 'warning', logger: 'mcp-devtools' });
      const data = message!.data as { message: string; outcome: string };
      expect(data.outcome).to.equal('upstream_http_error');
      expect(data.message).to.match(/^github_get_pull_request failed \(upstream_http_error\): GitHub answered 404/);
    });

    it('at debug: also when the call starts; at error: nothing for an answer or a warning', async () => {
      await client.setLoggingLevel('debug');
      expect((await messagesOf(client, seen)).map((m) => [m.level, (m.data as { message: string }).message.split(' ')[1]])).to.deep.equal([
        ['debug', 'started'],
        ['info', 'answered'],
      ]);
      await client.setLoggingLevel('error');
      expect(await messagesOf(client, seen)).to.deep.equal([]);
      expect(await messagesOf(client, seen, { ...ARGS, pullNumber: 9 })).to.deep.equal([]);
    });

    it('refuses a level the protocol does not have with -32602', async () => {
      const refused = await client.setLoggingLevel('verbose' as never).then(
        () => undefined,
        (error: { code: number; message: string }) => error,
      );
      expect(refused?.code).to.equal(-32602);
      expect(refused?.message).to.contain('logging/setLevel');
    });

    it("keeps the level to this connection: another client's stays unset", async () => {
      await client.setLoggingLevel('info');
      const other = await t.kernel.connect({ mode: 'legacy' });
      const otherSeen = listening(other);
      expect(await messagesOf(other, otherSeen)).to.deep.equal([]);
    });
  });

  describe('a 2026-07-28 client (the level in each request)', () => {
    it('is sent messages down to the level its request names, and none when it names none', async () => {
      const client = await t.kernel.connect({ mode: { pin: '2026-07-28' } });
      const seen = listening(client);
      expect(await messagesOf(client, seen)).to.deep.equal([]);
      for (const [level, sent] of [
        ['info', ['info']],
        ['debug', ['debug', 'info']],
      ] as const) {
        seen.length = 0;
        await client.callTool({ name: 'github_get_pull_request', arguments: ARGS, _meta: { 'io.modelcontextprotocol/logLevel': level } });
        expect(seen.map((m) => m.level)).to.deep.equal(sent);
      }
    });

    it('refuses a request that names a level the protocol does not have (-32602), and calls nothing', async () => {
      const client = await t.kernel.connect({ mode: { pin: '2026-07-28' } });
      const refused = await client
        .callTool({ name: 'github_get_pull_request', arguments: ARGS, _meta: { 'io.modelcontextprotocol/logLevel': 'verbose' } })
        .then(
          () => undefined,
          (error: { code?: number; message: string }) => error,
        );
      expect(refused?.code).to.equal(-32602);
      expect(refused?.message).to.contain('logLevel');
      expect(t.mock.requests).to.deep.equal([]);
    });

    it('finds no logging/setLevel: the method is gone in 2026-07-28 (-32601)', async () => {
      const { exchange } = await WireExchange.open(t.kernel.kernel, '2026-07-28');
      try {
        expect(await exchange.request('logging/setLevel', { level: 'info' })).to.deep.include({ error: { code: -32601, message: 'Method not found' } });
      } finally {
        await exchange.close();
      }
    });
  });
});
