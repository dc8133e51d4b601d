import type { Command } from 'commander';
import { withConfigOptions, withToolOptions } from './common-options.js';
import { serve, type ServeOptions } from './serve.js';
import { unknownCommand } from './unknown-command.js';

export function registerServe(program: Command): void {
  const command = program
    .command('serve', { isDefault: true })
    .description('serve MCP over stdio (default) or Streamable HTTP')
    .option('--transport <stdio|http>', 'transport (MCP_TRANSPORT)')
    .option('--port <n>', 'HTTP port (MCP_HTTP_PORT)')
    .option('--host <address>', 'HTTP bind address (MCP_HTTP_HOST, default 127.0.0.1)')
    .option('--workers <n|auto>', 'HTTP worker processes sharing the port, auto = one per core (MCP_WORKERS)')
    // A word that is not a command lands here, as the default command's argument: answered as what it is.
    .allowExcessArguments();
  withConfigOptions(withToolOptions(command)).action(async (options: ServeOptions, self: Command) => {
    if (self.args.length > 0) throw unknownCommand(self.args[0]!, program);
    await serve(options);
  });
}
