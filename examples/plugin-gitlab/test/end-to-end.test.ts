import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { connectStdio, MockUpstream, type StdioSession } from 'mcp-devtools/testing';
import { API_PREFIX, serveGitlab } from './gitlab-api.js';

/** The example's config file, which loads the compiled plugin by path: `{"plugins": ["./build/src/index.js"]}`. */
const CONFIG = fileURLToPath(new URL('../../mcp-devtools.config.json', import.meta.url));
const TOKEN = 'glpat-e2e-3c2b1a0f9e8d7c6b';

describe('gitlab plugin loaded by the mcp-devtools server from a config file (stdio, official SDK client)', () => {
  let mock: MockUpstream;
  let session: StdioSession;

  before(async () => {
    mock = await MockUpstream.start();
    serveGitlab(mock);
    session = await connectStdio({
      args: ['--config', CONFIG],
      env: { GITLAB_API_URL: `${mock.url}${API_PREFIX}`, GITLAB_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'debug' },
    });
  });
  after(async () => {
    await session.close();
    await mock.close();
  });

  it('lists the plugin\'s tools with titles, annotations and output schemas', async () => {
    const { tools } = await session.client.listTools();
    const gitlab = tools.filter((t) => t.name.startsWith('gitlab_'));
    expect(gitlab.map((t) => t.name)).to.deep.equal(['gitlab_list_pipelines', 'gitlab_list_pipeline_jobs', 'gitlab_get']);
    const list = gitlab[0]!;
    expect(list.title).to.equal('List GitLab CI/CD pipelines');
    expect(list.annotations).to.deep.include({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
    expect(list.inputSchema.required).to.deep.equal(['project']);
    expect(list.outputSchema?.required).to.deep.equal(['data', 'nextPage']);
    expect(tools.map((t) => t.name)).to.include('artifact_read');
  });

  it('calls a tool against GitLab and returns the page with its next page', async () => {
    const result = await session.client.callTool({ name: 'gitlab_list_pipelines', arguments: { project: 'acme-group/platform/api', perPage: 2, jq: '[*].id' } });
    expect(result.content).to.deep.equal([{ type: 'text', text: 'nextPage: 2\ndata[2]: 1187400,1187387' }]);
    expect(result.structuredContent).to.deep.equal({ data: [1187400, 1187387], nextPage: 2 });
    expect(mock.requests.at(-1)?.headers['private-token']).to.equal(TOKEN);
  });

  it('logs to stderr only, never the token', async () => {
    expect(await session.waitForStderr('"kernel started"')).to.contain('"gitlab"');
    for (const line of session.stderr) expect(line).not.to.contain(TOKEN);
  });
});
