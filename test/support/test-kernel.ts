import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL, type Principal } from '../../core/pipeline/principal.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { startKernel, type Started } from '../../server/bootstrap/start-kernel.js';
import { serverSettingsSchemas } from '../../server/server-settings.js';

export interface TestKernelOptions {
  /** Settings, as the environment would give them. */
  env?: Record<string, string>;
  /** A config file's content, written to a temporary working directory. */
  configFile?: { name?: string; content: string };
  cwd?: string;
  clock?: Clock;
}

export interface TestKernel extends Started {
  /** Every log line the kernel wrote (JSON). */
  logs: string[];
  call(tool: string, args?: Record<string, unknown>, principal?: Principal): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * A kernel in-process, isolated from the developer's machine: a fresh working directory and home (so no
 * `.env` or `~/.mcp/configs.json` leaks in), an environment of exactly the given settings, logs captured.
 */
export async function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'mcp-devtools-test-'));
  const home = mkdtempSync(join(tmpdir(), 'mcp-devtools-home-'));
  if (options.configFile) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(cwd, options.configFile.name ?? 'mcp-devtools.config.json'), options.configFile.content);
  }
  const logs: string[] = [];
  const started = await startKernel({
    cwd,
    home,
    env: { MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'), ...options.env },
    extraSettings: serverSettingsSchemas,
    logDestination: { write: (line: string) => logs.push(line) },
    clock: options.clock,
  });
  const kernel: Kernel = started.kernel;
  return {
    ...started,
    logs,
    call: (tool, args = {}, principal = LOCAL_PRINCIPAL) => kernel.call(tool, args, principal),
    close: () => kernel.close(),
  };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(first)}`);
  return first.text;
}
