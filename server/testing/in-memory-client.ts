import { InMemoryTransport, type Client } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Kernel } from '../../core/kernel/kernel.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { kitClient, type VersionNegotiation } from './sdk-client.js';

/**
 * The official SDK client connected to a kernel in-process, over the SDK's linked in-memory transports and
 * the same MCP server and era selection the stdio transport uses (2026-07-28 by default; pass
 * `{ mode: 'legacy' }` for a 2025-era client). The client validates each result's `structuredContent`
 * against the tool's `outputSchema` once it has listed the tools, as real clients do.
 */
export async function connectInMemory(kernel: Kernel, clientName = 'mcp-devtools-testing', versionNegotiation?: VersionNegotiation): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(() => createMcpServer(kernel), { transport: serverSide });
  const client = kitClient(clientName, versionNegotiation);
  await client.connect(clientSide);
  // Closing the client closes the linked server side too.
  const close = client.onclose;
  client.onclose = () => {
    close?.();
    void served.close().catch(() => {});
  };
  return client;
}
