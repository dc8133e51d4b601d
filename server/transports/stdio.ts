import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';

/** Serves MCP over stdin/stdout: stdout carries only JSON-RPC. Resolves when stdin closes. */
export async function serveStdio(kernel: Kernel): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const server = createMcpServer(kernel);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
