import { StartupError } from '../../core/errors/tool-error.js';
import { endQuietlyWhenOutputCloses } from './closed-output.js';
import { serve } from './serve.js';
import { ReportedStartupFailure } from './startup-failure.js';

export async function main(argv: readonly string[]): Promise<void> {
  endQuietlyWhenOutputCloses();
  try {
    // No arguments is how MCP clients start the server: it serves at once, and the command-line parser (a fair
    // part of start-up) is loaded only for commands and flags.
    if (argv.length <= 2) await serve({});
    else await (await import('./commands.js')).runCommand(argv);
  } catch (error) {
    process.exitCode = 1;
    if (error instanceof ReportedStartupFailure) return; // said once already, as LOG_FORMAT=pretty asked
    const message = error instanceof StartupError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`mcp-devtools: ${message}\n`);
  }
}
