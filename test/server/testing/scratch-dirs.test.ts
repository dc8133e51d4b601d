import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { connectStdio } from '../../../server/testing/stdio-server.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, jiraSearchBody, serveJiraSearch } from '../../bench/jira-bodies.js';
import { CLI_PATH } from '../../support/paths.js';
import { connectHttp, startHttpServer } from '../../support/sdk-client.js';

/** Where a truncated jira_get result says its whole text was saved (the server's raw folder, in its cwd). */
function savedFile(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const path = /saved at: `([^`]+)`/.exec(text)?.[1];
  expect(path, text.slice(-300)).to.be.a('string');
  return path!;
}

/** The HOME folders the kit has made that exist now. */
const homes = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-devtools-home-'));

/**
 * A server the testing kit starts in folders of its own leaves none of them behind once it stops: a benchmark's
 * server saves hundreds of KB a call there. A folder the caller gave is the caller's.
 */
describe('the testing kit: the folders it makes for a server are removed when the server stops', function () {
  this.timeout(30_000);
  let mock: MockUpstream;

  before(async () => {
    mock = await MockUpstream.start();
    serveJiraSearch(mock, jiraSearchBody(200 * 1024));
  });
  after(() => mock.close());

  const env = (): Record<string, string> => ({ ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, LOG_LEVEL: 'warn', MCP_TOOLSETS: 'jira.rest' });
  const bigCall = { name: 'jira_get', arguments: { path: SEARCH_PATH, outputFormat: 'json' } };

  it('connectStdio: the working folder with the saved text, and HOME, are gone after close', async () => {
    const before = homes();
    const session = await connectStdio({ cliPath: CLI_PATH, env: env(), versionNegotiation: { mode: 'legacy' } });
    const file = savedFile((await session.client.callTool(bigCall)) as CallToolResult);
    expect(existsSync(file), 'saved while the session is open').to.equal(true);
    await session.close();
    expect(existsSync(file)).to.equal(false);
    expect(existsSync(dirname(dirname(file))), 'the working folder').to.equal(false);
    expect(
      homes().filter((home) => !before.includes(home)),
      'HOME',
    ).to.deep.equal([]);
  });

  it('connectStdio: a working folder the caller gave is kept, with what the server saved in it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'kit-caller-cwd-'));
    try {
      const session = await connectStdio({ cliPath: CLI_PATH, env: env(), cwd, versionNegotiation: { mode: 'legacy' } });
      const file = savedFile((await session.client.callTool(bigCall)) as CallToolResult);
      await session.close();
      expect(file.startsWith(cwd)).to.equal(true);
      expect(existsSync(file)).to.equal(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('startHttpServer: its folders are gone once it has stopped', async () => {
    const server = await startHttpServer({ env: env() });
    const session = await connectHttp(server.url);
    const file = savedFile((await session.callTool(bigCall)) as CallToolResult);
    expect(existsSync(file)).to.equal(true);
    await session.close();
    await server.stop();
    expect(existsSync(dirname(dirname(file))), 'the working folder').to.equal(false);
  });
});
