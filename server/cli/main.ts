import { Command, CommanderError } from 'commander';
import { StartupError } from '../../core/errors/tool-error.js';
import { VERSION } from '../../core/version.js';
import { registerApprovals } from './approvals-command.js';
import { registerAudit } from './audit-command.js';
import { registerAuth } from './auth-command.js';
import { registerCall } from './call-command.js';
import { endQuietlyWhenOutputCloses } from './closed-output.js';
import { registerConfig } from './config-command.js';
import { registerPolicy } from './policy-command.js';
import { registerServe } from './serve-command.js';

/** Subcommands register themselves here; one file each. */
const COMMANDS: Array<(program: Command) => void> = [registerServe, registerCall, registerConfig, registerAuth, registerPolicy, registerApprovals, registerAudit];

export async function main(argv: readonly string[]): Promise<void> {
  endQuietlyWhenOutputCloses();
  const program = new Command('mcp-devtools')
    .description('MCP server for GitHub Actions, CircleCI, Jira, Confluence and Bitbucket')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  for (const register of COMMANDS) register(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const message = error instanceof StartupError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`mcp-devtools: ${message}\n`);
    process.exitCode = 1;
  }
}
