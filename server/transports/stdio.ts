import { nodeCrypto } from '../../core/node-crypto.js';
import { serveStdio as serveStdioEntry, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Kernel } from '../../core/kernel/kernel.js';
import type { Logger } from '../../core/logging/logger.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { MAX_MESSAGE_BYTES } from '../http/message-limits.js';
import { StdioMessageFilter } from './stdio-message-filter.js';

export interface RunningStdio {
  /** Resolves when the client is gone: stdin ended, or stdout can no longer be written (the reader closed it). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** The SDK's stdio transport, telling us when it closes (stdin ended, or stdout failed: EPIPE). */
class ObservedStdioTransport extends StdioServerTransport {
  constructor(
    input: NodeJS.ReadableStream,
    private readonly onClosed: () => void,
  ) {
    super(input as never, process.stdout);
  }

  override async close(): Promise<void> {
    await super.close();
    this.onClosed();
  }
}

/**
 * Serves MCP over stdin/stdout, both eras: the SDK's serveStdio reads the opening message and pins one server for
 * the connection, of the 2026-07-28 era (a `server/discover` probe or a request with the per-request `_meta`
 * envelope) or of a 2025-era revision (`initialize`). stdout carries only JSON-RPC. Lines that are not valid
 * JSON-RPC messages are answered by the filter in front of the SDK transport, which would drop them or close.
 */
export function serveStdio(kernel: Kernel, logger: Logger): RunningStdio {
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const messages = process.stdin.pipe(new StdioMessageFilter(MAX_MESSAGE_BYTES, (line) => process.stdout.write(line)));
  process.stdin.once('end', markClosed);
  // One stdio connection is one agent session: flow rules remember what it read under this id, made by the first
  // call (a random UUID needs node:crypto, which nothing else loads before a call).
  let connection: string | undefined;
  const connectionId = (): string => (connection ??= `stdio-${nodeCrypto().randomUUID()}`);
  const handle = serveStdioEntry(() => createMcpServer(kernel, { connection: connectionId }), {
    transport: new ObservedStdioTransport(messages, markClosed),
    // Reports only (a discarded notification, a closed pipe): the answers, if any, have been written.
    onerror: (error) => logger.debug({ err: error }, 'stdio transport'),
  });
  return { closed, close: () => handle.close() };
}
