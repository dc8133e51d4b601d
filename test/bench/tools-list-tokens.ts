import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { RawStdioServer } from '../support/raw-stdio.js';

/** What every tool's definition costs a model before its first call: the whole tools/list answer. */
export const TOOLS_LIST_TOKEN_BUDGET = 12_000;

export interface ToolsListSize {
  structuredOutput: boolean;
  tools: number;
  /** UTF-8 bytes of the `result` of tools/list as the server sends it (compact JSON). */
  bytes: number;
  /** o200k_base tokens of that text. */
  tokens: number;
  /** Tokens of each tool's definition, largest first. */
  perTool: Array<{ name: string; tokens: number }>;
}

/**
 * The tools/list of the built server (dist/cli.js over stdio, no config file: every plugin, every tool), read
 * off the wire with no client library in between, and counted with o200k_base.
 */
export async function measureToolsList(structuredOutput: boolean): Promise<ToolsListSize> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-tools-list-'));
  const server = await RawStdioServer.start({ MCP_STRUCTURED_OUTPUT: String(structuredOutput) }, cwd);
  try {
    server.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
    const result = (await server.reply('list')).result as { tools: Array<{ name: string }> };
    const text = JSON.stringify(result);
    const perTool = result.tools.map((t) => ({ name: t.name, tokens: countTokens(JSON.stringify(t)) })).sort((a, b) => b.tokens - a.tokens);
    return { structuredOutput, tools: result.tools.length, bytes: Buffer.byteLength(text, 'utf8'), tokens: countTokens(text), perTool };
  } finally {
    await server.stop();
  }
}
