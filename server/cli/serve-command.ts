import type { Command } from 'commander';
import { withConfigOptions } from './common-options.js';
import { serve } from './serve.js';

export function registerServe(program: Command): void {
  withConfigOptions(
    program
      .command('serve', { isDefault: true })
      .description('serve MCP over stdio (default) or Streamable HTTP')
      .option('--transport <stdio|http>', 'transport (MCP_TRANSPORT)')
      .option('--port <n>', 'HTTP port (MCP_HTTP_PORT)')
      .option('--host <address>', 'HTTP bind address (MCP_HTTP_HOST, default 127.0.0.1)'),
  ).action(serve);
}
