import { Command, CommanderError } from 'commander';
import { VERSION } from '../../core/version.js';
import { registerApprovals } from './approvals-command.js';
import { registerAudit } from './audit-command.js';
import { registerAuth } from './auth-command.js';
import { registerCall } from './call-command.js';
import { registerConfig } from './config-command.js';
import { registerPolicy } from './policy-command.js';
import { registerServe } from './serve-command.js';
import { registerTools } from './tools-command.js';

/** Subcommands register themselves here; one file each. */
const COMMANDS: Array<(program: Command) => void> = [
  registerServe,
  registerTools,
  registerCall,
  registerConfig,
  registerAuth,
  registerPolicy,
  registerApprovals,
  registerAudit,
];

/** Parses the command line and runs the command it names (`serve` by default). */
export async function runCommand(argv: readonly string[]): Promise<void> {
  const program = new Command('mcp-devtools')
    .description('MCP server for GitHub Actions, CircleCI, Jira, Confluence and Bitbucket')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  for (const register of COMMANDS) register(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Commander has printed what was wrong (or the help, or the version).
    if (!(error instanceof CommanderError)) throw error;
    process.exitCode = error.exitCode;
  }
}
