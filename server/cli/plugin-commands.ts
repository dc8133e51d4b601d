import type { Command } from 'commander';
import { findConfigFile, readConfigFile } from '../../core/config/config-file.js';
import type { CommandContribution } from '../../core/plugin/contributions.js';
import { readPluginSpec, type PluginClass } from '../../core/plugin/metadata.js';
import { loadPlugins } from '../bootstrap/load-plugins.js';
import { commandKit } from './command-kit.js';

/** A verb a plugin contributes. */
export interface DeclaredCommand {
  plugin: string;
  verb: string;
  command: CommandContribution;
}

const VERB = /^[a-z][a-z0-9-]*$/;

/**
 * The plugins a command line would run: the config file that `--config` (or MCP_DEVTOOLS_CONFIG, or the working
 * directory) names, read before the command line is parsed, since its plugins add verbs to it. A config file that
 * does not load leaves the built-in plugins: the command that reads it then says what is wrong.
 */
export async function pluginsOfCommandLine(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<PluginClass[]> {
  try {
    return await loadPlugins(readConfigFile(findConfigFile(cwd, configOption(argv) ?? env.MCP_DEVTOOLS_CONFIG), cwd));
  } catch {
    return loadPlugins({ dir: cwd, plugins: [] });
  }
}

function configOption(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (at < 0) return undefined;
  return argv[at]!.startsWith('--config=') ? argv[at]!.slice('--config='.length) : argv[at + 1];
}

/** The verbs the plugins contribute, in their order; one that is not a word, or that another command has, is refused naming both. */
export function declaredCommands(plugins: readonly PluginClass[], builtIn: readonly string[]): DeclaredCommand[] {
  const declared: DeclaredCommand[] = [];
  for (const cls of plugins) {
    const spec = readPluginSpec(cls);
    for (const command of spec?.contributes?.commands ?? []) {
      const verb = command.verb ?? spec!.name;
      if (!VERB.test(verb))
        throw new Error(`Plugin "${spec!.name}" contributes the command ${JSON.stringify(verb)}: a verb is a lower-case word, such as "${spec!.name}".`);
      if (builtIn.includes(verb))
        throw new Error(`Plugin "${spec!.name}" contributes the command "${verb}", which is one of mcp-devtools' own: choose another verb.`);
      const other = declared.find((d) => d.verb === verb);
      if (other !== undefined)
        throw new Error(`Plugins "${other.plugin}" and "${spec!.name}" both contribute the command "${verb}": give one of them another verb.`);
      declared.push({ plugin: spec!.name, verb, command });
    }
  }
  return declared;
}

/**
 * Adds the contributed verbs to the program: the one the command line runs (`invoked`) loaded and registered whole,
 * the others as their name and description only, for `mcp-devtools --help` and the unknown-command message.
 */
export async function addContributedCommands(program: Command, declared: readonly DeclaredCommand[], invoked: string | undefined): Promise<void> {
  for (const d of declared) {
    const command = program.command(d.verb).description(d.command.description);
    if (d.verb === invoked) (await d.command.load())(command, commandKit);
  }
}
