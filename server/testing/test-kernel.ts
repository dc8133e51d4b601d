import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';
import type { PluginClass } from '../../core/plugin/metadata.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { startKernel, type Started } from '../bootstrap/start-kernel.js';
import { serverSettingsSchemas } from '../cli/server-settings.js';
import { connectInMemory } from './in-memory-client.js';
import type { VersionNegotiation } from './sdk-client.js';

export interface TestKernelOptions {
  /**
   * Plugin classes to start in-process, after the built-in cross-cutting plugins (jq, TOON/JSON, truncation,
   * structured output, artifacts, cache, policy). Without a config file, no built-in vendor is started with them.
   */
  plugins?: readonly PluginClass[];
  /** Settings, as the environment would give them; nothing is read from the real environment. */
  env?: Record<string, string>;
  /** A config file's content, written to the temporary working directory. */
  configFile?: { name?: string; content: string };
  cwd?: string;
  /** Time as the kernel sees it (cache ages, artifact expiry). */
  clock?: Clock;
}

export interface TestKernel extends Started {
  /** Every log line the kernel wrote (pino JSON). */
  logs: string[];
  /** Calls a tool in-process, as `principal` (`local` by default). */
  call(tool: string, args?: Record<string, unknown>, principal?: Principal): Promise<CallToolResult>;
  /**
   * The official SDK client connected to this kernel in-process; closed with the kernel. It speaks 2026-07-28
   * unless told otherwise (`{ mode: 'legacy' }`: a 2025-era client, `initialize` with 2025-11-25).
   */
  connect(versionNegotiation?: VersionNegotiation): Promise<Client>;
  close(): Promise<void>;
}

/**
 * A kernel in-process, isolated from the developer's machine: a fresh working directory and home (so no
 * `.env` or `~/.mcp/configs.json` leaks in), an environment of exactly the given settings, logs captured.
 * A plugin that cannot start makes this reject with the kernel's StartupError, which names the plugin.
 */
export async function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'mcp-devtools-test-'));
  const home = mkdtempSync(join(tmpdir(), 'mcp-devtools-home-'));
  if (options.configFile) writeFileSync(join(cwd, options.configFile.name ?? 'mcp-devtools.config.json'), options.configFile.content);
  const logs: string[] = [];
  const started = await startKernel({
    cwd,
    home,
    env: { MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'), ...options.env },
    extraSettings: serverSettingsSchemas,
    plugins: options.plugins,
    logDestination: { write: (line: string) => logs.push(line) },
    clock: options.clock,
  });
  const { kernel } = started;
  const clients: Client[] = [];
  return {
    ...started,
    logs,
    call: (tool, args = {}, principal = LOCAL_PRINCIPAL) => kernel.call(tool, args, principal),
    connect: async (versionNegotiation) => {
      const client = await connectInMemory(kernel, undefined, versionNegotiation);
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      await kernel.close();
    },
  };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(first)}`);
  return first.text;
}
