import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Kernel } from '../kernel/kernel.js';
import { createMcpServer } from '../../server/mcp/create-mcp-server.js';

/**
 * The official SDK client connected to a kernel in-process, over the SDK's linked in-memory transports and
 * the same MCP server the stdio and HTTP transports use. The client validates each result's
 * `structuredContent` against the tool's `outputSchema` once it has listed the tools, as real clients do.
 */
export async function connectInMemory(kernel: Kernel, clientName = 'mcp-devtools-testing'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(kernel);
  await server.connect(serverSide);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(clientSide);
  // Closing the client closes the linked server side too.
  client.onclose = () => void server.close().catch(() => {});
  return client;
}
