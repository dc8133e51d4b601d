import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE_PLUGIN_PATH } from './fixture-plugin.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from './sdk-client.js';

/** The test-only plugin whose tools write and read the shared store and the artifact store. */
export const STORE_PROBE_PLUGIN_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins/store-probe.js');

export interface ReplicaOptions {
  /** MCP_STORE_URL every replica shares. */
  storeUrl: string;
  /** MCP_STORE_NAMESPACE every replica shares. */
  namespace: string;
  /** Further settings, as environment, for every replica (vendor base URLs, auth, policy). */
  env?: Record<string, string>;
  /** Plugins to load by path or name; the fixture vendor and the store probe by default. */
  plugins?: string[];
  /** Bearer token the clients send (once HTTP authentication is configured). */
  token?: string;
}

/** One `dist/cli.js --transport http` process and an SDK client connected to it. */
export class Replica {
  server!: HttpServerProcess;
  client!: Client;

  constructor(
    readonly name: string,
    private readonly cwd: string,
    private readonly env: Record<string, string>,
    private readonly token?: string,
  ) {}

  get url(): string {
    return this.server.url;
  }

  async start(): Promise<void> {
    this.server = await startHttpServer({ cwd: this.cwd, env: this.env });
    this.client = await connectHttp(this.server.url, this.token);
  }

  /** A tool call; `json` asks for outputFormat json and parses the text. */
  call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return this.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  }

  async callJson<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = await this.call(name, { ...args, outputFormat: 'json' });
    const first = result.content[0];
    if (result.isError || first?.type !== 'text') throw new Error(`${this.name}: ${name} failed: ${JSON.stringify(result.content)}`);
    return JSON.parse(first.text) as T;
  }

  /** Stops the process (SIGTERM, graceful) and starts it again on a new port, same settings and files. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.client?.close().catch(() => {});
    await this.server?.stop();
  }
}

/**
 * Starts `count` replicas sharing one store, as behind a load balancer: each its own working directory (no
 * shared files but the store), the same config file and settings.
 */
export async function startReplicas(count: number, options: ReplicaOptions): Promise<Replica[]> {
  const plugins = options.plugins ?? [FIXTURE_PLUGIN_PATH, STORE_PROBE_PLUGIN_PATH];
  const env = { MCP_STORE_URL: options.storeUrl, MCP_STORE_NAMESPACE: options.namespace, ...options.env };
  const replicas = Array.from({ length: count }, (_, i) => {
    const cwd = mkdtempSync(join(tmpdir(), `mcp-devtools-replica-${i}-`));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins }));
    return new Replica(String.fromCharCode(65 + i), cwd, env, options.token);
  });
  try {
    await Promise.all(replicas.map((r) => r.start()));
  } catch (error) {
    await stopReplicas(replicas);
    throw error;
  }
  return replicas;
}

export async function stopReplicas(replicas: readonly Replica[]): Promise<void> {
  await Promise.all(replicas.map((r) => r.stop()));
}
