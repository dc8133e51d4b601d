import type { Command } from 'commander';
import { startCommandKernel, type VerboseOption } from './command-kernel.js';
import { invocationFrom, toolFlags, withConfigOptions, withToolOptions, withVerboseOption, type ConfigOptions, type ToolOptions } from './common-options.js';

interface ToolsOptions extends ConfigOptions, ToolOptions, VerboseOption {
  json?: boolean;
}

/** One served tool, as `tools --json` prints it. */
export interface ToolRow {
  name: string;
  title: string;
  access: 'read' | 'write';
  plugin: string;
  toolset: string;
}

/**
 * `mcp-devtools tools [--toolsets ...] [--tools ...] [--read-only] [--json]`: the tools a server started with
 * the same configuration and options would serve, with their title, whether they only read, and their plugin.
 */
export function registerTools(program: Command): void {
  withVerboseOption(
    withConfigOptions(
      withToolOptions(
        program.command('tools').description('list the tools a server would serve with this configuration (name, title, read or write, toolset)'),
      ),
    ),
  )
    .option('--json', 'print JSON')
    .action(async (options: ToolsOptions) => {
      const { kernel } = await startCommandKernel(invocationFrom(options, toolFlags(options)), options);
      try {
        const rows: ToolRow[] = kernel.servedDefinitions().map((d) => ({
          name: d.spec.name,
          title: d.spec.title,
          access: d.spec.annotations.readOnlyHint ? 'read' : 'write',
          plugin: d.plugin,
          toolset: kernel.toolsetOf(d.spec.name) ?? d.plugin,
        }));
        process.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
      } finally {
        await kernel.close();
      }
    });
}

function table(rows: readonly ToolRow[]): string {
  const width = (key: keyof ToolRow): number => Math.max(key.length, ...rows.map((r) => r[key].length));
  const [name, access, toolset] = [width('name'), width('access'), width('toolset')];
  const line = (r: Record<keyof ToolRow, string>): string => `${r.name.padEnd(name)}  ${r.access.padEnd(access)}  ${r.toolset.padEnd(toolset)}  ${r.title}`;
  const writes = rows.filter((r) => r.access === 'write').length;
  const toolsets = new Set(rows.map((r) => r.toolset)).size;
  const header = line({ name: 'NAME', title: 'TITLE', access: 'ACCESS', plugin: 'PLUGIN', toolset: 'TOOLSET' });
  return `${[header, ...rows.map(line)].join('\n')}\n\n${count(rows.length, 'tool')} (${writes} that write) in ${count(toolsets, 'toolset')}.\n`;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
