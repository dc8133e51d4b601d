import { Command, Option } from 'commander';

export { invocationFrom, toolFlags, type ConfigOptions, type ToolOptions } from './invocation.js';

/** `--config PATH` and `--set KEY=VALUE` (repeatable): every command that starts a kernel takes them. */
export function withConfigOptions(command: Command): Command {
  return command
    .option('--config <path>', 'config file (default: mcp-devtools.config.json|yaml in the working directory, or MCP_DEVTOOLS_CONFIG)')
    .addOption(new Option('--set <KEY=VALUE>', 'set a setting, above every other source (repeatable)').argParser(collect).default([]));
}

/** `--toolsets`, `--tools`, `--exclude-tools`, `--dynamic-toolsets`, `--read-only`, `--code-mode`: which tools are served (serve, tools, call). */
export function withToolOptions(command: Command): Command {
  return command
    .option('--toolsets <names>', 'serve these toolsets, comma-separated: github.actions,jira; a plugin name, "default" or "all" (MCP_TOOLSETS)')
    .option('--tools <names>', 'serve these tools too, comma-separated: jira_get,github_get (MCP_TOOLS)')
    .option('--exclude-tools <names>', 'never serve these tools, comma-separated (MCP_EXCLUDE_TOOLS)')
    .option('--dynamic-toolsets', 'start with list_toolsets, get_toolset_tools and enable_toolset; callers enable what they need (MCP_DYNAMIC_TOOLSETS)')
    .option('--read-only', 'hide every tool that can change something (MCP_READ_ONLY)')
    .option('--code-mode', 'serve search_tools, execute and artifact_read only; programs run by execute reach the other tools (MCP_CODE_MODE)');
}

/** `--verbose`: the commands that answer a person add the kernel's log lines on stderr (command-kernel.ts). */
export function withVerboseOption(command: Command): Command {
  return command.option('--verbose', "also write the server's log lines on stderr (JSON, or as LOG_FORMAT says)");
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
