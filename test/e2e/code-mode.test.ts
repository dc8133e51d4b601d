import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { eventually } from '../support/enterprise-fixture.js';
import { connectHttp, connectStdio, startHttpServer, type HttpServerProcess, type StdioSession } from '../support/sdk-client.js';

const RUNS = '/repos/octo-org/octo-repo/actions/runs';
const text = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

// The built server (dist/cli.js, its sandbox worker dist/code-sandbox.js) with --code-mode, and the official SDK client.
describe('code mode end to end (dist/cli.js --code-mode, the official SDK client)', function () {
  this.timeout(60_000);
  let mock: MockUpstream;

  before(async () => {
    mock = await MockUpstream.start();
    mock.on('GET', RUNS, {
      body: {
        total_count: 2,
        workflow_runs: [
          { id: 7, conclusion: 'failure' },
          { id: 8, conclusion: 'success' },
        ],
      },
    });
  });
  after(() => mock.close());

  describe('over stdio', () => {
    let session: StdioSession;
    before(async () => {
      session = await connectStdio({ args: ['--code-mode'], env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: 'e2e-token' } });
    });
    after(() => session.close());

    it('lists three tools and runs a program that reaches the others', async () => {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(['artifact_read', 'execute', 'search_tools']);
      const result = await session.client.callTool({
        name: 'execute',
        arguments: {
          code: "const page = await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', jq: \"workflow_runs[?conclusion=='failure'].id\" });\nconsole.log(page.data);",
        },
      });
      expect(text(result)).to.equal('[7]');
    });
  });

  describe('over Streamable HTTP, two clients', () => {
    let server: HttpServerProcess;
    let busy: Client;
    let other: Client;
    before(async () => {
      server = await startHttpServer({
        args: ['--code-mode'],
        env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: 'e2e-token', MCP_CODE_CPU_MS: '20000', MCP_CODE_TIMEOUT_MS: '30000' },
      });
      busy = await connectHttp(server.url);
      other = await connectHttp(server.url);
    });
    after(async () => {
      await busy?.close();
      await other?.close();
      await server?.stop();
    });

    it("answers another client's calls while a program computes, and stops the program when its caller cancels", async () => {
      // Warm: the first program loads the compiler and starts a sandbox thread.
      expect(text(await other.callTool({ name: 'execute', arguments: { code: 'return 1;' } }))).to.equal('Returned: 1');
      const cancel = new AbortController();
      let busyEnded = false;
      const looping = busy
        .callTool({ name: 'execute', arguments: { code: 'let n = 0;\nwhile (true) n++;' } }, { signal: cancel.signal })
        .then(
          () => 'answered',
          (error: Error) => error.message,
        )
        .finally(() => (busyEnded = true));
      // The loop runs in a sandbox thread: the server's event loop, and so the other client, are not held.
      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push(
          text(
            await other.callTool({
              name: 'execute',
              arguments: {
                code: `const page = await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo' });\nreturn (page.data as { total_count: number }).total_count + ${i};`,
              },
            }),
          ),
        );
        answers.push(text(await other.callTool({ name: 'search_tools', arguments: { query: 'workflow runs' } })).includes('GithubListWorkflowRuns'));
      }
      expect(answers).to.deep.equal(['Returned: 2', true, 'Returned: 3', true, 'Returned: 4', true]);
      expect(busyEnded, 'the endless program was still running').to.equal(false);
      cancel.abort();
      expect(await looping).to.match(/abort/i);
      // The server stopped the program then (its CPU limit is 20 s away), and its sandbox serves the next one.
      await eventually(
        'the cancelled program is logged as such',
        () => server.stderr.some((line) => /"tool":"execute".*"outcome":"cancelled"/.test(line)),
        10_000,
      );
      expect(text(await busy.callTool({ name: 'execute', arguments: { code: 'return 2;' } }))).to.equal('Returned: 2');
    });
  });
});
