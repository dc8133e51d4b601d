import { randomBytes } from 'node:crypto';
import { Client, type CallToolResult, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { isolatedEnv } from '../../../server/testing/stdio-server.js';
import { CLI_PATH } from '../../support/paths.js';
import { PUBLIC_URL, startActingServer, type ActingServer } from '../../support/identity/acting-server.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const PAGE = 'https://mcp.acme.example/console/accounts';
const CALL = { name: 'circleci_pipeline_status', arguments: { projectSlug: 'gh/acme/app' } };

interface Asked {
  mode?: string;
  url?: string;
  message?: string;
  elicitationId?: string;
}

/**
 * The official v2 client over real stdio to the built server (CIRCLECI_CREDENTIALS=user, the console's page at
 * PAGE), as a client that takes URL-mode elicitation (answering `answer`) or one that does not.
 */
async function connect(
  circleci: MockUpstream,
  options: { urlElicitation: boolean; answer?: 'accept' | 'decline' | 'cancel'; negotiation?: ClientOptions['versionNegotiation'] },
): Promise<{ client: Client; asked: Asked[] }> {
  const asked: Asked[] = [];
  const client = new Client(
    { name: 'url-elicitation-tests', version: '1.0.0' },
    { versionNegotiation: options.negotiation ?? { mode: 'legacy' }, capabilities: options.urlElicitation ? { elicitation: { url: {} } } : {} },
  );
  if (options.urlElicitation)
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Asked);
      return { action: options.answer ?? 'accept' };
    });
  const env = isolatedEnv({
    MCP_TOOLSETS: 'all',
    CIRCLECI_BASE_URL: circleci.url,
    CIRCLECI_CREDENTIALS: 'user',
    MCP_VAULT_KEY: randomBytes(32).toString('hex'),
    MCP_CONSOLE: 'true',
    MCP_CONSOLE_PUBLIC_URL: 'https://mcp.acme.example',
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH], env, stderr: 'pipe' }));
  return { client, asked };
}

const sentenceOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text.split('\n')[0]!.replace(/^Error: /, '');

describe('A missing link asked for by URL-mode elicitation (2025-11-25 elicitation/create, 2026-07-28 input_required), over stdio with the official v2 client', function () {
  this.timeout(30_000);
  let circleci: MockUpstream;
  const clients: Client[] = [];

  before(async () => {
    circleci = await MockUpstream.start();
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await circleci?.close();
  });

  const open = async (options: Parameters<typeof connect>[1]) => {
    const connected = await connect(circleci, options);
    clients.push(connected.client);
    return connected;
  };

  it('sends the person the Connected accounts page through elicitation/create, and the model only a sentence without it', async () => {
    const { client, asked } = await open({ urlElicitation: true });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(result.isError).to.equal(true);
    expect(sentenceOf(result)).to.equal(
      'You have not linked your CircleCI account yet; you were asked to link it in your browser, so call again once it is linked.',
    );
    expect(JSON.stringify(result)).not.to.include('mcp.acme.example');
    expect(asked).to.have.length(1);
    expect(asked[0]).to.include({ mode: 'url', url: PAGE });
    expect(asked[0]!.message).to.equal(
      'Link your CircleCI account to mcp-devtools, so that its calls to CircleCI act as you: open Connected accounts and connect CircleCI.',
    );
    expect(asked[0]!.elicitationId).to.be.a('string').and.not.equal('');
    expect(circleci.requests).to.have.length(0);
  });

  it('says the person chose not to link when they decline, still without the URL', async () => {
    const { client, asked } = await open({ urlElicitation: true, answer: 'decline' });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(sentenceOf(result)).to.equal('You have not linked your CircleCI account yet, and chose not to link it now; nothing was sent.');
    expect(JSON.stringify(result)).not.to.include('mcp.acme.example');
    expect(asked).to.have.length(1);
  });

  it('keeps the sentence with where to link for a client without URL-mode elicitation', async () => {
    const { client } = await open({ urlElicitation: false });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(sentenceOf(result)).to.equal(`You have not linked your CircleCI account yet; link it at ${PAGE}.`);
  });

  it('asks a 2026-07-28 client through input_required, which it fulfils and retries: the result has no URL', async () => {
    const { client, asked } = await open({ urlElicitation: true, negotiation: { mode: { pin: '2026-07-28' } } });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(sentenceOf(result)).to.equal(
      'You have not linked your CircleCI account yet; you were asked to link it in your browser, so call again once it is linked.',
    );
    expect(JSON.stringify(result)).not.to.include('mcp.acme.example');
    expect(asked).to.have.length(1);
    expect(asked[0]).to.include({ mode: 'url', url: PAGE });
    expect(circleci.requests).to.have.length(0);
  });

  it("reads a 2026-07-28 person's decline from the retried call", async () => {
    const { client, asked } = await open({ urlElicitation: true, answer: 'decline', negotiation: { mode: { pin: '2026-07-28' } } });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(sentenceOf(result)).to.equal('You have not linked your CircleCI account yet, and chose not to link it now; nothing was sent.');
    expect(asked).to.have.length(1);
  });

  it('keeps the sentence with where to link for a 2026-07-28 client without URL-mode elicitation', async () => {
    const { client } = await open({ urlElicitation: false, negotiation: { mode: { pin: '2026-07-28' } } });
    const result = (await client.callTool(CALL)) as CallToolResult;
    expect(sentenceOf(result)).to.equal(`You have not linked your CircleCI account yet; link it at ${PAGE}.`);
  });
});

describe('A missing link over Streamable HTTP (stateless), with a client that takes URL-mode elicitation', function () {
  this.timeout(30_000);
  let circleci: MockUpstream;
  let acting: ActingServer;

  before(async () => {
    circleci = await MockUpstream.start();
    acting = await startActingServer({ alice: 'tok-alice-elicit-5b1e07' }, ['circleci'], { CIRCLECI_BASE_URL: circleci.url, CIRCLECI_CREDENTIALS: 'user' });
  });
  after(async () => {
    await acting?.close();
    await circleci?.close();
  });

  const callAs = async (negotiation: ClientOptions['versionNegotiation']): Promise<{ sentence: string; asked: Asked[] }> => {
    const asked: Asked[] = [];
    const client = new Client(
      { name: 'url-elicitation-tests', version: '1.0.0' },
      { versionNegotiation: negotiation, capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Asked);
      return { action: 'accept' };
    });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(acting.server.url), { requestInit: { headers: { authorization: 'Bearer tok-alice-elicit-5b1e07' } } }),
      );
      return { sentence: sentenceOf((await client.callTool(CALL)) as CallToolResult), asked };
    } finally {
      await client.close();
    }
  };

  it('asks a 2026-07-28 client through input_required, as over stdio', async () => {
    const { sentence, asked } = await callAs({ mode: { pin: '2026-07-28' } });
    expect(sentence).to.equal('You have not linked your CircleCI account yet; you were asked to link it in your browser, so call again once it is linked.');
    expect(asked).to.have.length(1);
    expect(asked[0]).to.include({ mode: 'url', url: `${PUBLIC_URL}/console/accounts` });
  });

  it('gives a 2025-era client the sentence with where to link: a stateless POST cannot carry elicitation/create and its answer', async () => {
    const { sentence, asked } = await callAs({ mode: 'legacy' });
    expect(sentence).to.equal(`You have not linked your CircleCI account yet; link it at ${PUBLIC_URL}/console/accounts.`);
    expect(asked).to.have.length(0);
  });
});
