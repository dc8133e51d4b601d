// A request whose params do not fit the protocol's schema is answered -32602 Invalid params, naming the method and
// the param. The SDK alone answers it -32603 with the schema library's issue list, which server/mcp/invalid-params.ts
// corrects on the transport: the first test pins that SDK behaviour, so that an SDK release that changes it fails
// here (then drop or adjust the adapter) rather than silently in front of a client.
import { InMemoryTransport, Server, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { expect } from 'chai';
import { createMcpServer } from '../../../server/mcp/create-mcp-server.js';
import { startTestKernel, type TestKernel } from '../../support/test-kernel.js';

interface Answer {
  id: string;
  error?: { code: number; message: string };
  result?: Record<string, unknown>;
}

/** A raw JSON-RPC peer of `server` over the SDK's linked in-memory transports: send one request, read its answer. */
async function rawPeer(server: Server): Promise<(message: Record<string, unknown>) => Promise<Answer>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<string, (answer: Answer) => void>();
  clientSide.onmessage = (message: JSONRPCMessage) => {
    const answer = message as unknown as Answer;
    waiting.get(answer.id)?.(answer);
  };
  await server.connect(serverSide);
  await clientSide.start();
  return (message) =>
    new Promise((resolve) => {
      waiting.set(String(message.id), resolve);
      void clientSide.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
    });
}

const NO_CLIENT_INFO = { id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
const NUMERIC_CURSOR = { id: 'list', method: 'tools/list', params: { cursor: 7 } };

describe('params that do not fit the protocol: -32602 naming the method and the param', () => {
  it('the SDK alone answers them -32603 with the issue list in JSON (what invalid-params.ts corrects)', async () => {
    const bare = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
    bare.setRequestHandler('tools/list', () => ({ tools: [] }));
    const send = await rawPeer(bare);
    for (const [request, param] of [
      [NO_CLIENT_INFO, 'clientInfo'],
      [NUMERIC_CURSOR, 'cursor'],
    ] as const) {
      const { error } = await send(request);
      expect(error?.code, request.method).to.equal(-32603);
      const issues = JSON.parse(error!.message) as { path: unknown[]; message: string }[];
      expect(issues.map((i) => i.path).flat(), request.method).to.include(param);
      expect(issues.every((i) => typeof i.message === 'string')).to.equal(true);
    }
    await bare.close();
  });

  describe('this server', () => {
    let kernel: TestKernel;
    before(
      async () =>
        (kernel = await startTestKernel({
          configFile: { content: JSON.stringify({ plugins: ['github'] }) },
          env: { GITHUB_TOKEN: 'ghp_paramsCheck0123456789' },
        })),
    );
    after(() => kernel.close());

    it('answers them -32602, saying which param of which method is wrong, and keeps serving', async () => {
      const server = createMcpServer(kernel.kernel);
      const send = await rawPeer(server);
      const initialize = await send(NO_CLIENT_INFO);
      expect(initialize.error?.code).to.equal(-32602);
      expect(initialize.error?.message).to.match(/^Invalid params for initialize: params\.clientInfo: /);
      const good = await send({ ...NO_CLIENT_INFO, id: 'init2', params: { ...NO_CLIENT_INFO.params, clientInfo: { name: 'raw', version: '1' } } });
      expect(good.result?.protocolVersion).to.equal('2025-11-25');
      const list = await send(NUMERIC_CURSOR);
      expect(list.error?.code).to.equal(-32602);
      expect(list.error?.message).to.match(/^Invalid params for tools\/list: params\.cursor: /);
      const listed = await send({ id: 'list2', method: 'tools/list' });
      expect((listed.result?.tools as unknown[]).length).to.be.greaterThan(5);
      await server.close();
    });

    it('leaves other failures as they are: an unknown method stays -32601', async () => {
      const server = createMcpServer(kernel.kernel);
      const send = await rawPeer(server);
      expect((await send({ id: 'x', method: 'tools/destroy' })).error?.code).to.equal(-32601);
      await server.close();
    });
  });
});
