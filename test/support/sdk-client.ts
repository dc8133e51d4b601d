import { spawn, type ChildProcess } from 'node:child_process';
import { StreamableHTTPClientTransport, type CallToolResult, type Client, type Tool } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { kitClient, type VersionNegotiation } from '../../server/testing/sdk-client.js';
import { ScratchDirs } from '../../server/testing/scratch-dirs.js';
import { connectStdio as connectStdioServer, isolatedEnv, type StdioSession } from '../../server/testing/stdio-server.js';
import { CLI_PATH } from './paths.js';
import { everyToolUnlessChosen } from './every-tool.js';

/**
 * The one place that knows which MCP client a test drives. By default, the official SDK's v2 client negotiating
 * the newest revision (2026-07-28); the compatibility tests name a client of either generation:
 * - `sdk1`: `@modelcontextprotocol/sdk` 1.32.2, the 1.x line (initialize with 2025-11-25);
 * - `v2-legacy`: the v2 client as it comes (`initialize`, 2025-11-25);
 * - `v2-auto`: the v2 client with `versionNegotiation: { mode: 'auto' }` (`server/discover`, then 2026-07-28);
 * - `v2-pinned`: the v2 client pinned to 2026-07-28.
 */
export type ClientKind = 'sdk1' | 'v2-legacy' | 'v2-auto' | 'v2-pinned';
export const CLIENT_KINDS: readonly ClientKind[] = ['sdk1', 'v2-legacy', 'v2-auto', 'v2-pinned'];

const NEGOTIATION: Record<Exclude<ClientKind, 'sdk1'>, VersionNegotiation> = {
  'v2-legacy': { mode: 'legacy' },
  'v2-auto': { mode: 'auto' },
  'v2-pinned': { mode: { pin: '2026-07-28' } },
};

/** What every client generation offers the tests. */
export interface AnyClient {
  listTools(): Promise<{ tools: Tool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A client of some kind, connected, with the revision it negotiated. */
export interface Connected {
  kind: ClientKind;
  client: AnyClient;
  revision: string | undefined;
  stderr: string[];
  close(): Promise<void>;
}

export interface ProcessOptions {
  /** Settings for the server, as its environment. */
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  /** Another build of the CLI (the benchmark's baseline commit); dist/cli.js by default. */
  cliPath?: string;
  /** How the (v2) client negotiates; default: the newest revision. */
  versionNegotiation?: VersionNegotiation;
}

export { isolatedEnv, type StdioSession };

/** The official SDK client (v2), talking to `dist/cli.js` over stdio. */
export function connectStdio(options: ProcessOptions = {}): Promise<StdioSession> {
  return connectStdioServer({ ...options, env: everyToolUnlessChosen(options.env, options.args), cliPath: options.cliPath ?? CLI_PATH });
}

/** A client of the given kind over stdio to `dist/cli.js`. */
export async function connectStdioAs(kind: ClientKind, options: ProcessOptions = {}): Promise<Connected> {
  if (kind !== 'sdk1') {
    const session = await connectStdio({ ...options, versionNegotiation: NEGOTIATION[kind] });
    return { kind, client: asAny(session.client), revision: session.client.getNegotiatedProtocolVersion(), stderr: session.stderr, close: session.close };
  }
  const scratch = new ScratchDirs();
  const cwd = options.cwd ?? scratch.make('mcp-devtools-cwd-');
  const transport = new Sdk1StdioTransport({
    command: process.execPath,
    args: [CLI_PATH, ...(options.args ?? [])],
    env: isolatedEnv(everyToolUnlessChosen(options.env, options.args), cwd, scratch),
    cwd,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const { client, revision } = await connectSdk1(transport).catch((error: unknown) => {
    scratch.remove();
    throw error;
  });
  return { kind, client: client as unknown as AnyClient, revision: revision(), stderr, close: () => scratch.removeAfter(client.close()) };
}

/** A client of the given kind over Streamable HTTP, with an optional bearer token. */
export async function connectHttpAs(kind: ClientKind, url: string, token?: string): Promise<Connected> {
  if (kind !== 'sdk1') {
    const client = await connectHttp(url, token, NEGOTIATION[kind]);
    return { kind, client: asAny(client), revision: client.getNegotiatedProtocolVersion(), stderr: [], close: () => client.close() };
  }
  const transport = new Sdk1HttpTransport(new URL(url), { requestInit: { headers: bearer(token) } });
  const { client, revision } = await connectSdk1(transport);
  return { kind, client: client as unknown as AnyClient, revision: revision(), stderr: [], close: () => client.close() };
}

/** The 1.x client does not keep the revision it negotiated; its transport is told it, so ask the transport. */
async function connectSdk1(transport: Sdk1StdioTransport | Sdk1HttpTransport): Promise<{ client: Sdk1Client; revision: () => string | undefined }> {
  let negotiated: string | undefined;
  const tell = (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.bind(transport);
  (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion = (version) => {
    negotiated = version;
    tell?.(version);
  };
  const client = new Sdk1Client({ name: 'mcp-devtools-tests-sdk1', version: '1.0.0' });
  await client.connect(transport);
  return { client, revision: () => negotiated };
}

const asAny = (client: Client): AnyClient => client as unknown as AnyClient;
const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

export interface HttpServerProcess {
  url: string;
  process: ChildProcess;
  stderr: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `dist/cli.js --transport http --port 0` and waits for the URL it listens on. */
export async function startHttpServer(options: ProcessOptions = {}): Promise<HttpServerProcess> {
  // The folders made here (not a `cwd` the caller gave) are removed once the process has exited.
  const scratch = new ScratchDirs();
  const cwd = options.cwd ?? scratch.make('mcp-devtools-cwd-');
  const child = spawn(process.execPath, [options.cliPath ?? CLI_PATH, '--transport', 'http', '--port', '0', ...(options.args ?? [])], {
    cwd,
    env: isolatedEnv(everyToolUnlessChosen(options.env, options.args), cwd, scratch),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      scratch.remove();
      resolve(code);
    }),
  );
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

/** The official SDK client (v2) over Streamable HTTP, with an optional bearer token; the newest revision by default. */
export async function connectHttp(url: string, token?: string, versionNegotiation?: VersionNegotiation): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(token) } });
  const client = kitClient('mcp-devtools-tests', versionNegotiation);
  await client.connect(transport);
  return client;
}
