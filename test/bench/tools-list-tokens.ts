import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CLI_PATH } from '../support/paths.js';
import { isolatedEnv } from '../support/sdk-client.js';
import { EVERY_VENDOR_CREDENTIALS } from '../support/every-vendor-credentials.js';

/** What the default set of tools' definitions may cost a model before its first call. */
export const TOOLS_LIST_TOKEN_BUDGET = 12_000;

/** A way of starting the server whose tools/list the bench counts, with its budget. */
export interface ToolsListConfiguration {
  label: string;
  args: string[];
  budget: number;
}

/**
 * The configurations counted, structured output off. Flags the server does not know yet are measured once it
 * does: until then the row says the server did not start with them.
 */
export const TOOLS_LIST_CONFIGURATIONS: ToolsListConfiguration[] = [
  { label: 'every tool', args: ['--toolsets', 'all'], budget: 22_000 },
  { label: 'the default set', args: [], budget: TOOLS_LIST_TOKEN_BUDGET },
  { label: 'dynamic toolsets', args: ['--dynamic-toolsets'], budget: 1_500 },
  { label: 'code mode', args: ['--code-mode'], budget: 1_000 },
];

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

/** The tools/list of the built server started with no arguments (no config file: every plugin; every vendor configured). */
export function measureToolsList(structuredOutput: boolean, args: string[] = []): Promise<ToolsListSize> {
  return toolsListOf(args, { MCP_STRUCTURED_OUTPUT: String(structuredOutput), ...EVERY_VENDOR_CREDENTIALS }).then((result) => {
    const text = JSON.stringify(result);
    const perTool = result.tools.map((t) => ({ name: t.name, tokens: countTokens(JSON.stringify(t)) })).sort((a, b) => b.tokens - a.tokens);
    return { structuredOutput, tools: result.tools.length, bytes: Buffer.byteLength(text, 'utf8'), tokens: countTokens(text), perTool };
  });
}

/** A configuration's count, or why it was not measured (the server did not start with its flags). */
export interface ToolsListRow {
  label: string;
  args: string[];
  budget: number;
  measured: { tools: number; tokens: number } | { notMeasured: string };
}

/** Every configuration's tools/list, structured output off; one that does not start is a row saying so. */
export async function benchToolsList(configurations: ToolsListConfiguration[]): Promise<ToolsListRow[]> {
  const rows: ToolsListRow[] = [];
  for (const c of configurations) {
    const measured = await measureToolsList(false, c.args).then(
      (size) => ({ tools: size.tools, tokens: size.tokens }),
      (error: unknown) => ({ notMeasured: (error as Error).message }),
    );
    rows.push({ ...c, measured });
    process.stderr.write(`  tools/list, ${c.label}: ${'tokens' in measured ? `${measured.tokens} tokens` : measured.notMeasured}\n`);
  }
  return rows;
}

interface ToolsListResult {
  tools: Array<{ name: string }>;
}

/**
 * The `result` of tools/list from dist/cli.js started with `args`, read off the wire with no client library in
 * between (a 2025-era handshake, then tools/list). Rejects with what the server said if it exits first.
 */
function toolsListOf(args: string[], env: Record<string, string>): Promise<ToolsListResult> {
  const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-tools-list-'));
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd, env: isolatedEnv({ ...env, HOME: cwd }, cwd), stdio: ['pipe', 'pipe', 'pipe'] });
  const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
  let stdout = '';
  let stderr = '';
  return new Promise<ToolsListResult>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      for (let newline = stdout.indexOf('\n'); newline !== -1; newline = stdout.indexOf('\n')) {
        const line = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        let reply: { id?: string; result?: unknown };
        try {
          reply = JSON.parse(line) as typeof reply;
        } catch {
          reject(new Error(`the server wrote a line that is not JSON on stdout: ${line.slice(0, 200)}`));
          return;
        }
        if (reply.id === 'init') {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
        } else if (reply.id === 'list') resolve(reply.result as ToolsListResult);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listing its tools: ${stderr.trim().split('\n')[0] ?? ''}`)));
    child.once('error', reject);
    send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  }).finally(async () => {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await once(child, 'exit');
    }
    rmSync(cwd, { recursive: true, force: true });
  });
}
