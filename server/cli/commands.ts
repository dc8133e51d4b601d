import { Command, CommanderError } from 'commander';
import { VERSION } from '../../core/version.js';
import { registerAuth } from './auth-command.js';
import { registerCall } from './call-command.js';
import { registerConfig } from './config-command.js';
import { addContributedCommands, declaredCommands, pluginsOfCommandLine } from './plugin-commands.js';
import { registerServe } from './serve-command.js';
import { registerTools } from './tools-command.js';
import { endOfLifeNotice } from './runtime-support.js';

/** The CLI's own subcommands register themselves here; one file each. The plugins' verbs follow them. */
const COMMANDS: Array<(program: Command) => void> = [registerServe, registerTools, registerCall, registerConfig, registerAuth];

/**
 * Parses the command line and runs the command it names (`serve` by default): one of the CLI's own, or a verb a
 * plugin contributes (`@Plugin({ contributes: { commands } })`, loaded only when it is the one run).
 */
export async function runCommand(argv: readonly string[]): Promise<void> {
  const program = new Command('mcp-devtools')
    .description('MCP server for GitHub Actions, CircleCI, Jira, Confluence and Bitbucket')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  for (const register of COMMANDS) register(program);
  // Every command says that this Node.js is past end of life, once, on stderr; `serve` says it as a log line.
  program.hook('preAction', (_program, action) => {
    if (action.name() !== 'serve') warnEndOfLife();
  });
  const own = program.commands.map((c) => c.name());
  const declared = declaredCommands(await pluginsOfCommandLine(argv, process.cwd(), process.env), own);
  await addContributedCommands(
    program,
    declared,
    argv.slice(2).find((a) => !a.startsWith('-')),
  );
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Commander has printed what was wrong (or the help, or the version).
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.version' || error.code === 'commander.helpDisplayed' || error.code === 'commander.help') warnEndOfLife();
    process.exitCode = error.exitCode;
  }
}

/** The runtime notice as a plain `warning:` line, as commands say what the configuration warns about. */
function warnEndOfLife(): void {
  const notice = endOfLifeNotice();
  if (notice !== undefined) process.stderr.write(`warning: ${notice}\n`);
}
