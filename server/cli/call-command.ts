import type { Command } from 'commander';
import { UnknownToolError } from '../../core/kernel/kernel.js';
import { LOCAL_PRINCIPAL } from '../../core/identity/principal.js';
import { startCommandKernel, type VerboseOption } from './command-kernel.js';
import { invocationFrom, toolFlags, withConfigOptions, withToolOptions, withVerboseOption, type ConfigOptions, type ToolOptions } from './common-options.js';
import { unknownToolMessage } from './unknown-tool.js';

interface CallOptions extends ConfigOptions, ToolOptions, VerboseOption {
  structured?: boolean;
  json?: boolean;
}

/** `mcp-devtools call TOOL 'JSON-ARGS' [--structured|--json]`: one call in-process; exit 1 on an error result. */
export function registerCall(program: Command): void {
  withVerboseOption(
    withConfigOptions(
      withToolOptions(
        program
          .command('call <tool> [args]')
          .description('run one tool call in-process and print its text (or, with --structured, the whole result as JSON)')
          .option('--structured', 'print the whole MCP result as JSON')
          .option('--json', 'the same as --structured, as the other commands name it'),
      ),
    ),
  ).action(async (tool: string, rawArgs: string | undefined, options: CallOptions) => {
    let args: unknown;
    try {
      args = JSON.parse(rawArgs ?? '{}');
    } catch (error) {
      throw new Error(`The arguments must be a JSON object, as '{"owner":"octo"}': ${(error as Error).message}`, { cause: error });
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new Error('The arguments must be a JSON object.');
    const { kernel, config } = await startCommandKernel(invocationFrom(options, toolFlags(options)), options);
    try {
      const result = await kernel.call(tool, args as Record<string, unknown>, LOCAL_PRINCIPAL).catch(async (error: unknown) => {
        throw error instanceof UnknownToolError ? new Error(await unknownToolMessage(tool, kernel, error.message, config.path)) : error;
      });
      const first = result.content[0];
      process.stdout.write(options.structured || options.json ? `${JSON.stringify(result, null, 2)}\n` : `${first?.type === 'text' ? first.text : ''}\n`);
      process.exitCode = result.isError ? 1 : 0;
    } finally {
      await kernel.close();
    }
  });
}
