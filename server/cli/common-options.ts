import { Command, Option } from 'commander';

export { invocationFrom, type ConfigOptions } from './invocation.js';

/** `--config PATH` and `--set KEY=VALUE` (repeatable): every command that starts a kernel takes them. */
export function withConfigOptions(command: Command): Command {
  return command
    .option('--config <path>', 'config file (default: mcp-devtools.config.json|yaml in the working directory, or MCP_DEVTOOLS_CONFIG)')
    .addOption(new Option('--set <KEY=VALUE>', 'set a setting, above every other source (repeatable)').argParser(collect).default([]));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
