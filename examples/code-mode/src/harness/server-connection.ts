import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export interface ServerOptions {
  /** The server's environment (its settings and credentials). Default: this process's environment. */
  env?: Record<string, string | undefined>;
  /** Its working directory, where it finds `mcp-devtools.config.json`. Default: this process's. */
  cwd?: string;
  /** The CLI to run. Default: the installed mcp-devtools package's `dist/cli.js`. */
  cliPath?: string;
  /** False for a server as a direct agent has it, structured output off (code mode needs it on: the default). */
  structuredOutput?: boolean;
}

export interface ServerConnection {
  client: Client;
  /** The server's last log lines (stderr), for an error message when something goes wrong. */
  logTail(): string[];
  close(): Promise<void>;
}

const LOG_LINES_KEPT = 50;

/**
 * Starts mcp-devtools over stdio with structured output on, and connects the official SDK client (v2) to it. Code
 * mode needs `structuredContent`, so MCP_STRUCTURED_OUTPUT is true whatever the environment says, unless
 * `structuredOutput: false` asks for a server as a direct agent has it.
 */
export async function connectToServer(options: ServerOptions = {}): Promise<ServerConnection> {
  const env = Object.fromEntries(Object.entries(options.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cliPath ?? fileURLToPath(import.meta.resolve('mcp-devtools/dist/cli.js'))],
    env: { ...env, MCP_STRUCTURED_OUTPUT: String(options.structuredOutput ?? true) },
    cwd: options.cwd,
    stderr: 'pipe',
  });
  // The server logs to stderr; the pipe must be read or a chatty server would block on it.
  const log: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    log.splice(0, Math.max(0, log.length - LOG_LINES_KEPT));
  });
  // The newest revision the server speaks (2026-07-28 with mcp-devtools 0.2), the 2025 handshake otherwise.
  const client = new Client({ name: 'mcp-devtools-code-mode', version: '0.1.0' }, { versionNegotiation: { mode: 'auto' } });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`mcp-devtools did not start: ${(error as Error).message}\n${log.join('\n')}`, { cause: error });
  }
  return { client, logTail: () => [...log], close: () => client.close() };
}
