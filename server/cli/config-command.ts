import type { Command } from 'commander';
import { redactUrl } from '../../core/text/url-credentials.js';
import { resolveConfig } from '../bootstrap/resolve-config.js';
import { printWarnings } from './command-kernel.js';
import { invocationFrom, withConfigOptions, type ConfigOptions } from './common-options.js';

/** `mcp-devtools config`: the effective configuration, secrets masked, with where each value came from. */
export function registerConfig(program: Command): void {
  withConfigOptions(program.command('config').description('print the effective configuration (secrets masked) and where each value came from'))
    .option('--json', 'print JSON instead of a table')
    .action(async (options: ConfigOptions & { json?: boolean }) => {
      const { settings, config, plugins, warnings } = await resolveConfig(invocationFrom(options));
      printWarnings(warnings);
      const rows = settings.entries().map((s) => ({
        key: s.key,
        value: s.secret ? (s.value === '' ? '' : '********') : typeof s.value === 'string' ? redactUrl(s.value) : s.value,
        source: s.source,
        owner: s.owner,
      }));
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ configFile: config.path ?? null, plugins: plugins.map((p) => p.name), settings: rows }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`config file: ${config.path ?? '(none: all built-in plugins)'}\n\n`);
      const width = Math.max(...rows.map((r) => r.key.length));
      for (const r of rows) process.stdout.write(`${r.key.padEnd(width)}  ${JSON.stringify(r.value)}  (${r.source}; ${r.owner})\n`);
    });
}
