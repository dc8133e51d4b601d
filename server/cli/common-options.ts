import { Command, Option } from 'commander';
import type { StartOptions } from '../bootstrap/start-kernel.js';
import { serverSettingsSchemas } from '../server-settings.js';

export interface ConfigOptions {
  config?: string;
  set?: string[];
}

/** `--config PATH` and `--set KEY=VALUE` (repeatable): every command that starts a kernel takes them. */
export function withConfigOptions(command: Command): Command {
  return command
    .option('--config <path>', 'config file (default: mcp-devtools.config.json|yaml in the working directory, or MCP_DEVTOOLS_CONFIG)')
    .addOption(new Option('--set <KEY=VALUE>', 'set a setting, above every other source (repeatable)').argParser(collect).default([]));
}

export interface ToolOptions {
  toolsets?: string;
  tools?: string;
  readOnly?: boolean;
}

/** `--toolsets`, `--tools`, `--read-only`: which tools are served (serve, and the tools and call commands). */
export function withToolOptions(command: Command): Command {
  return command
    .option('--toolsets <plugins>', 'serve only the tools of these plugins, comma-separated: github,jira (MCP_TOOLSETS)')
    .option('--tools <names>', 'serve these tools too, comma-separated: jira_get,github_get (MCP_TOOLS)')
    .option('--read-only', 'hide every tool that can change something (MCP_READ_ONLY)');
}

/** The settings those options stand for. */
export function toolFlags(options: ToolOptions): Record<string, string> {
  const flags: Record<string, string> = {};
  if (options.toolsets !== undefined) flags.MCP_TOOLSETS = options.toolsets;
  if (options.tools !== undefined) flags.MCP_TOOLS = options.tools;
  if (options.readOnly) flags.MCP_READ_ONLY = 'true';
  return flags;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
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
