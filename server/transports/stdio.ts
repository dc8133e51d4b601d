import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { MAX_MESSAGE_BYTES } from './message-limits.js';
import { StdioMessageFilter } from './stdio-message-filter.js';

/**
 * Serves MCP over stdin/stdout: stdout carries only JSON-RPC. Lines that are not valid JSON-RPC messages are
 * answered by the filter in front of the SDK transport, which would drop them or close. Resolves when stdin closes.
 */
export async function serveStdio(kernel: Kernel): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const server = createMcpServer(kernel);
  const messages = process.stdin.pipe(new StdioMessageFilter(MAX_MESSAGE_BYTES, (line) => process.stdout.write(line)));
  const transport = new StdioServerTransport(messages, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
