import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Kernel } from '../../core/kernel/kernel.js';
import { createMcpServer } from '../../server/mcp/create-mcp-server.js';

export type Era = '2025-11-25' | '2026-07-28';

const clientInfo = { name: 'golden', version: '1.0.0' };

/**
 * Raw JSON-RPC with a kernel's MCP server, in one era, with no client library in between: what the server
 * writes is what a client of that era reads, byte for byte. 2025-11-25 opens with `initialize`; 2026-07-28
 * sends `server/discover` and gives every request the per-request `_meta` envelope instead.
 */
export class WireExchange {
  private nextId = 1;
  private readonly pending = new Map<number, (message: JSONRPCMessage) => void>();

  private constructor(
    private readonly client: InMemoryTransport,
    private readonly served: { close(): Promise<void> },
    readonly era: Era,
  ) {
    client.onmessage = (message) => {
      const id = (message as { id?: unknown }).id;
      if (typeof id === 'number') this.pending.get(id)?.(message);
    };
  }

  static async open(kernel: Kernel, era: Era): Promise<{ exchange: WireExchange; opening: unknown }> {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const served = serveStdio(() => createMcpServer(kernel), { transport: server });
    await client.start();
    const exchange = new WireExchange(client, served, era);
    if (era === '2026-07-28') return { exchange, opening: await exchange.request('server/discover') };
    const opening = await exchange.request('initialize', { protocolVersion: era, capabilities: {}, clientInfo });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return { exchange, opening };
  }

  /** The whole response message (result or error) to one request. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': this.era,
      'io.modelcontextprotocol/clientInfo': clientInfo,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const sent = this.era === '2026-07-28' && method !== 'initialize' ? { ...params, _meta: envelope } : params;
    const answered = new Promise<JSONRPCMessage>((resolve) => this.pending.set(id, resolve));
    await this.client.send({ jsonrpc: '2.0', id, method, params: sent });
    const { jsonrpc: _version, id: _id, ...rest } = (await answered) as Record<string, unknown>;
    return rest;
  }

  async close(): Promise<void> {
    await this.served.close();
    await this.client.close();
  }
}
