import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServerProcess } from './sdk-client.js';

export interface ReplicaOptions {
  /** MCP_STORE_URL every replica shares. */
  storeUrl: string;
  /** MCP_STORE_NAMESPACE every replica shares. */
  namespace: string;
  /** Further settings, as environment, for every replica (vendor base URLs, auth, policy). */
  env?: Record<string, string>;
  /** Plugins the config file loads, by built-in name or module path. */
  plugins: string[];
  /** The bearer token of each caller, by name (with MCP_AUTH_MODE=tokens); a caller without one sends none. */
  tokens?: Record<string, string>;
}

/**
 * One `dist/cli.js --transport http` process, and SDK clients connected straight to it, one per caller (each
 * with its own bearer token), made when first asked for. Restarting the process drops them: they name its
 * old port.
 */
export class Replica {
  server!: HttpServerProcess;
  private readonly clients = new Map<string, Promise<Client>>();

  constructor(
    readonly name: string,
    /** Its working directory: relative paths in its settings (an audit log) are its own. */
    readonly cwd: string,
    private readonly env: Record<string, string>,
    private readonly tokens: Record<string, string>,
  ) {}

  get url(): string {
    return this.server.url;
  }

  /** The replica's own address (`http://127.0.0.1:PORT`): what a balancer forwards to, and its admin endpoint. */
  get origin(): string {
    return new URL(this.server.url).origin;
  }

  get pid(): number {
    return this.server.process.pid!;
  }

  /** A client of this replica acting as `caller`. */
  as(caller: string): Promise<Client> {
    let client = this.clients.get(caller);
    if (client === undefined) {
      client = connectHttp(this.url, this.tokens[caller]);
      this.clients.set(caller, client);
    }
    return client;
  }

  async start(): Promise<void> {
    this.server = await startHttpServer({ cwd: this.cwd, env: this.env });
  }

  /** Stops the process (SIGTERM, graceful) and starts it again on a new port, same settings and files. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map(async (c) => (await c.catch(() => undefined))?.close().catch(() => {})));
    await this.server?.stop();
  }
}

/**
 * Starts `count` replicas sharing one store, as behind a load balancer: each its own working directory (no
 * shared files but the store and what `env` names), the same config file and settings.
 */
export async function startReplicas(count: number, options: ReplicaOptions): Promise<Replica[]> {
  const env = { MCP_STORE_URL: options.storeUrl, MCP_STORE_NAMESPACE: options.namespace, ...options.env };
  const replicas = Array.from({ length: count }, (_, i) => {
    const cwd = mkdtempSync(join(tmpdir(), `mcp-devtools-replica-${i}-`));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: options.plugins }));
    return new Replica(String.fromCharCode(65 + i), cwd, env, options.tokens ?? {});
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
