import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { tokensFileYaml } from '../auth-fixture.js';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../sdk-client.js';

/** Where browsers reach the test servers (the OAuth redirect URIs): nothing listens there, the test carries codes over. */
export const PUBLIC_URL = 'http://localhost:9';

/** A built server over Streamable HTTP with named people (tokens file), a SQLite store, an audit log, a vault and the console on. */
export interface ActingServer {
  server: HttpServerProcess;
  dir: string;
  /** What a program holding the person's token sends to link: POST /identity/link{path}. */
  linkRoute(path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The official SDK client, as the person with this token. */
  connect(token: string): Promise<Client>;
  close(): Promise<void>;
}

/** `args`: more command-line arguments (`--port N`, for a server whose public URL must be known before it starts). */
export async function startActingServer(
  people: Record<string, string>,
  plugins: string[],
  env: Record<string, string>,
  args: string[] = [],
): Promise<ActingServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-acting-'));
  writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml(Object.entries(people).map(([subject, token]) => ({ token, subject, groups: ['developers'] }))));
  writeFileSync(join(dir, 'mcp-devtools.config.json'), JSON.stringify({ plugins }));
  const server = await startHttpServer({
    cwd: dir,
    args,
    env: {
      MCP_AUTH_MODE: 'tokens',
      MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
      MCP_STORE_URL: `sqlite://${join(dir, 'store.db')}`,
      MCP_AUDIT_LOG: join(dir, 'audit.jsonl'),
      MCP_VAULT_KEY: randomBytes(32).toString('base64'),
      MCP_CONSOLE: 'true',
      MCP_CONSOLE_PUBLIC_URL: PUBLIC_URL,
      ...env,
    },
  });
  const clients: Client[] = [];
  return {
    server,
    dir,
    linkRoute: async (path, token, body) => {
      const response = await fetch(server.url.replace(/\/mcp$/, `/identity/link${path}`), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    connect: async (token) => {
      const client = await connectHttp(server.url, token);
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      await server.stop();
    },
  };
}

/** The sentence of an error result (its first line, without `Error: `). */
export const sentence = (result: CallToolResult): string => (result.content[0] as { text: string }).text.split('\n')[0]!.replace(/^Error: /, '');
