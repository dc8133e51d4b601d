import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectStdio as connectStdioServer, isolatedEnv, type StdioSession } from '../../core/testing/stdio-server.js';
import { CLI_PATH } from './paths.js';

export interface ProcessOptions {
  /** Settings for the server, as its environment. */
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  /** Another build of the CLI (the benchmark's baseline commit); dist/cli.js by default. */
  cliPath?: string;
}

export { isolatedEnv, type StdioSession };

/** The official SDK client, talking to `dist/cli.js` over stdio. */
export function connectStdio(options: ProcessOptions = {}): Promise<StdioSession> {
  return connectStdioServer({ ...options, cliPath: options.cliPath ?? CLI_PATH });
}

export interface HttpServerProcess {
  url: string;
  process: ChildProcess;
  stderr: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `dist/cli.js --transport http --port 0` and waits for the URL it listens on. */
export async function startHttpServer(options: ProcessOptions = {}): Promise<HttpServerProcess> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'mcp-devtools-cwd-'));
  const child = spawn(process.execPath, [options.cliPath ?? CLI_PATH, '--transport', 'http', '--port', '0', ...(options.args ?? [])], {
    cwd,
    env: isolatedEnv(options.env, cwd),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await listeningUrl(child, stderr, exited);
  return {
    url,
    process: child,
    stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The URL of a server process's "listening on" line, once it has come; its stderr lines are collected in
 * `stderr` meanwhile. Rejects with them if the process exits first, or says nothing for 20 s.
 */
export function listeningUrl(child: ChildProcess, stderr: string[], exited: Promise<number | null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr.join('\n')}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        stderr.push(line);
        // A JSON log line: the URL ends where its JSON string does.
        const match = /listening on (http:\/\/[^\s"]+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${stderr.join('\n')}`));
    });
  });
}

/** The official SDK client over Streamable HTTP, with an optional bearer token. */
export async function connectHttp(url: string, token?: string): Promise<Client> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'mcp-devtools-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
