import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { RawStdioServer } from '../support/raw-stdio.js';

/**
 * The SDK validates every request against its era's wire schemas: a malformed request is refused with invalid
 * params and a well-formed one served, in both eras.
 */
const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const cwd = (): string => mkdtempSync(join(tmpdir(), 'mcp-devtools-validation-'));
const INVALID_PARAMS = -32602;

describe('request validation by the wire schemas of each era, over stdio', function () {
  this.timeout(60_000);

  it('refuses an initialize without clientInfo as the first request, then accepts a well-formed one', async () => {
    const server = RawStdioServer.spawn({}, cwd());
    try {
      server.send({ jsonrpc: '2.0', id: 'bad', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      expect((await server.reply('bad')).error?.code).to.equal(INVALID_PARAMS);
      server.send({
        jsonrpc: '2.0',
        id: 'good',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect((await server.reply('good')).result?.protocolVersion).to.equal('2025-11-25');
    } finally {
      await server.stop();
    }
  });

  it('in 2025-11-25, refuses malformed tools/call and tools/list params, and keeps serving', async () => {
    const server = await RawStdioServer.start({}, cwd());
    try {
      server.send({ jsonrpc: '2.0', id: 'name', method: 'tools/call', params: { name: 42 } });
      expect((await server.reply('name')).error?.code).to.equal(INVALID_PARAMS);
      server.send({ jsonrpc: '2.0', id: 'args', method: 'tools/call', params: { name: 'jira_get', arguments: 'not an object' } });
      expect((await server.reply('args')).error?.code).to.equal(INVALID_PARAMS);
      server.send({ jsonrpc: '2.0', id: 'cursor', method: 'tools/list', params: { cursor: 7 } });
      expect((await server.reply('cursor')).error?.code).to.equal(INVALID_PARAMS);
      server.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
      expect((await server.reply('ping')).result).to.deep.equal({});
      server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
      expect(((await server.reply('list')).result?.tools as unknown[]).length).to.be.greaterThan(20);
    } finally {
      await server.stop();
    }
  });

  it(`in ${MODERN}, refuses malformed tools/call and tools/list params, and keeps serving`, async () => {
    const server = RawStdioServer.spawn({}, cwd());
    try {
      server.send({ jsonrpc: '2.0', id: 'name', method: 'tools/call', params: { name: 42, _meta: envelope } });
      expect((await server.reply('name')).error?.code).to.equal(INVALID_PARAMS);
      server.send({ jsonrpc: '2.0', id: 'cursor', method: 'tools/list', params: { cursor: 7, _meta: envelope } });
      expect((await server.reply('cursor')).error?.code).to.equal(INVALID_PARAMS);
      server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list', params: { _meta: envelope } });
      expect(((await server.reply('list')).result?.tools as unknown[]).length).to.be.greaterThan(20);
    } finally {
      await server.stop();
    }
  });
});
