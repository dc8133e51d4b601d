import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ScratchDirs } from './scratch-dirs.js';
import { kitClient, type VersionNegotiation } from './sdk-client.js';

export interface StdioServerOptions {
  /** The mcp-devtools CLI script to run with this Node. */
  cliPath: string;
  /** Settings for the server, as its environment (nothing else of this process's environment but PATH). */
  env?: Record<string, string>;
  /** Command-line arguments, e.g. `['--config', '/path/to/mcp-devtools.config.json']`. */
  args?: string[];
  /** Working directory (by default a fresh temporary one, removed when the session closes). */
  cwd?: string;
  /**
   * How the client negotiates the revision (default: 2026-07-28, which over stdio the SDK client probes on a
   * second, short-lived server process before it starts the one it keeps; `{ mode: 'legacy' }`: 2025-11-25).
   */
  versionNegotiation?: VersionNegotiation;
}

export interface StdioSession {
  client: Client;
  /** The server's stderr lines (its JSON logs), as they have arrived so far. */
  stderr: string[];
  /**
   * The first stderr line that contains `text`, once it has arrived: stderr is a pipe of its own, so a line
   * logged during a call may arrive after the call's result. Rejects after `timeoutMs`, showing what came.
   */
  waitForStderr(text: string, timeoutMs?: number): Promise<string>;
  /** The server process's id (the benchmark reads its CPU time); undefined once it has gone. */
  readonly pid: number | undefined;
  /** Stops the server, then removes the folders made for it (a `cwd` the caller gave is left as it is). */
  close(): Promise<void>;
}

/**
 * A clean environment for a child server: PATH and a private HOME (unless `env` names one), nothing from the
 * developer's shell. A HOME made here is one of `scratch`'s folders when given, removed with them.
 */
export function isolatedEnv(env: Record<string, string> = {}, cwd?: string, scratch?: ScratchDirs): Record<string, string> {
  const home = env.HOME ?? (scratch !== undefined ? scratch.make('mcp-devtools-home-') : mkdtempSync(join(tmpdir(), 'mcp-devtools-home-')));
  return { PATH: process.env.PATH ?? '', HOME: home, MCP_RAW_RESPONSE_DIR: join(cwd ?? home, 'raw'), ...env };
}

/** The official SDK client (v2), talking over stdio to the mcp-devtools CLI started as a child process. */
export async function connectStdio(options: StdioServerOptions): Promise<StdioSession> {
  // The folders made here (not a `cwd` the caller gave) are removed when the session closes.
  const scratch = new ScratchDirs();
  const cwd = options.cwd ?? scratch.make('mcp-devtools-cwd-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.cliPath, ...(options.args ?? [])],
    env: isolatedEnv(options.env, cwd, scratch),
    cwd,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  // A long line can arrive in several chunks: only whole lines are pushed.
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    stderr.push(...lines.filter(Boolean));
  });
  const client = kitClient('mcp-devtools-tests', options.versionNegotiation);
  try {
    await client.connect(transport);
  } catch (error) {
    await scratch.removeAfter(client.close()).catch(() => undefined);
    // A server that fails start-up says why on stderr: put it in the error rather than "connection closed".
    throw new Error(`the server did not start: ${(error as Error).message}\n${stderr.join('\n')}`, { cause: error });
  }
  const waitForStderr = async (text: string, timeoutMs = 5000): Promise<string> => {
    for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 10))) {
      const line = stderr.find((l) => l.includes(text));
      if (line !== undefined) return line;
      if (Date.now() > deadline) throw new Error(`no stderr line contains ${JSON.stringify(text)} after ${timeoutMs} ms:\n${stderr.join('\n')}`);
    }
  };
  return {
    client,
    stderr,
    waitForStderr,
    get pid() {
      return transport.pid ?? undefined;
    },
    close: () => scratch.removeAfter(client.close()),
  };
}
