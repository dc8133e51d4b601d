import type { StartOptions } from '../bootstrap/start-kernel.js';
import { serverSettingsSchemas } from './server-settings.js';

/** The options every command that starts a kernel takes (`--config`, `--set`: common-options.ts). */
export interface ConfigOptions {
  config?: string;
  set?: string[];
}

/** Turns parsed options into the invocation the configuration cascade reads. */
export function invocationFrom(options: ConfigOptions, flags: Record<string, string> = {}): StartOptions {
  const fromSet: Record<string, string> = {};
  for (const pair of options.set ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--set expects KEY=VALUE, got "${pair}"`);
    fromSet[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return {
    cwd: process.cwd(),
    env: process.env,
    configPath: options.config,
    flags: { ...fromSet, ...flags },
    extraSettings: serverSettingsSchemas,
  };
}

export interface ToolOptions {
  toolsets?: string;
  tools?: string;
  excludeTools?: string;
  dynamicToolsets?: boolean;
  readOnly?: boolean;
  codeMode?: boolean;
}

/** The settings the tool selection flags stand for (common-options.ts declares them). */
export function toolFlags(options: ToolOptions): Record<string, string> {
  const flags: Record<string, string> = {};
  if (options.toolsets !== undefined) flags.MCP_TOOLSETS = options.toolsets;
  if (options.tools !== undefined) flags.MCP_TOOLS = options.tools;
  if (options.excludeTools !== undefined) flags.MCP_EXCLUDE_TOOLS = options.excludeTools;
  if (options.dynamicToolsets) flags.MCP_DYNAMIC_TOOLSETS = 'true';
  if (options.readOnly) flags.MCP_READ_ONLY = 'true';
  if (options.codeMode) flags.MCP_CODE_MODE = 'true';
  return flags;
}
