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
