import { homedir } from 'node:os';
import type { TObject } from 'typebox';
import { findConfigFile, readConfigFile, type ConfigFile } from '../../core/config/config-file.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { refuseNonObjectSettings, resolveSettings, type Settings, type SettingOwner } from '../../core/config/settings.js';
import { misplacedSettings, OWN_SECTION } from '../../core/config/mcp-configs-placement.js';
import { dotenvLayer, mapLayer, mcpConfigsLayer, readMcpConfigs } from '../../core/config/sources.js';
import { readPluginSpec, type PluginClass } from '../../core/plugin/metadata.js';
import { loadPlugins } from './load-plugins.js';
import { isBuiltinPlugin } from './builtin-plugins.js';
import { refuseReservedSettings, undeclaredSecretValues } from './reserved-settings.js';

/** Everything a process was started with that configuration may come from. */
export interface Invocation {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  home?: string;
  /** Settings given on the command line (`--set KEY=VALUE`, `--port`): the top of the cascade. */
  flags?: Readonly<Record<string, string>>;
  /** `--config PATH`. */
  configPath?: string;
  /** Settings schemas of server-side parts that are not plugins (the transports, authentication). */
  extraSettings?: readonly TObject[];
  /** Plugin classes given in-process (the test kit), started after the config file's plugins. */
  plugins?: readonly PluginClass[];
}

export interface ResolvedConfig {
  config: ConfigFile;
  plugins: PluginClass[];
  settings: Settings;
  /** Warnings found while resolving (logged once the logger exists). */
  warnings: string[];
}

/**
 * The configuration cascade, highest first: command-line flags, the process environment, `./.env`, the
 * plugin's sections of `~/.mcp/configs.json`, the config file's `settings`, then built-in defaults.
 */
export async function resolveConfig(invocation: Invocation): Promise<ResolvedConfig> {
  const configPath = findConfigFile(invocation.cwd, invocation.configPath ?? invocation.env.MCP_DEVTOOLS_CONFIG);
  const config = readConfigFile(configPath, invocation.cwd);
  const plugins = await loadPlugins(config, invocation.plugins);
  const owners: SettingOwner[] = [
    { name: 'core', schema: CoreSettings, sections: [OWN_SECTION] },
    ...(invocation.extraSettings ?? []).map((schema) => ({ name: 'server', schema, sections: [OWN_SECTION] })),
  ];
  for (const cls of plugins) {
    const spec = readPluginSpec(cls); // a class without @Plugin is refused by the kernel, naming it
    // A plugin's own sections first; then this server's section, where users put everything of ours.
    const sections = [...new Set([...(spec?.configSections ?? [spec?.name ?? '']), OWN_SECTION])];
    if (spec?.settings) {
      const owner = { name: spec.name, schema: spec.settings, sections };
      // Before anything reads its keys: a schema that is not an object is refused naming the plugin.
      refuseNonObjectSettings(owner);
      if (!isBuiltinPlugin(cls)) refuseReservedSettings(owner);
      owners.push(owner);
    }
  }
  const flags = invocation.flags ?? {};
  const fileSettings = config.settings ?? {};
  const explicit = new Map<string, string>([
    ...Object.keys(fileSettings).map((k): [string, string] => [k, `config file ${config.path}`]),
    ...Object.keys(flags).map((k): [string, string] => [k, 'a command-line flag']),
  ]);
  const mcpConfigs = readMcpConfigs(invocation.home ?? homedir());
  const warnings: string[] = misplacedSettings(mcpConfigs, owners);
  const layers = [
    mapLayer('command line', flags),
    mapLayer('environment', invocation.env),
    dotenvLayer(invocation.cwd),
    mcpConfigsLayer(mcpConfigs),
    mapLayer(`config file ${config.path ?? ''}`.trim(), fileSettings),
  ];
  const resolved = resolveSettings(owners, layers, explicit, (message) => warnings.push(message));
  const declared = new Set(owners.flatMap((owner) => Object.keys(owner.schema.properties)));
  const settings = resolved.withUndeclaredSecrets(undeclaredSecretValues(declared, layers));
  return { config, plugins, settings, warnings };
}
