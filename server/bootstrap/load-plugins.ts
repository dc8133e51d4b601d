import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StartupError } from '../../core/errors/tool-error.js';
import { isPluginClass, type PluginClass } from '../../core/plugin/metadata.js';
import { recordPluginOrigin } from '../../core/plugin/plugin-origin.js';
import { didYouMean } from '../../core/text/nearest-names.js';
import type { ConfigFile } from '../../core/config/config-file.js';
import { CROSS_CUTTING, VENDORS } from './builtin-plugins.js';

/**
 * The plugin classes to start: the cross-cutting built-ins (minus `disable`), then the config file's
 * `plugins` (built-in names, module paths relative to the file, or package names), or every built-in vendor
 * when there is no list and no class is `given` in-process; then the `given` classes. Anything that does not
 * load names itself in the error.
 */
export async function loadPlugins(config: ConfigFile, given: readonly PluginClass[] = []): Promise<PluginClass[]> {
  const disabled = new Set(config.disable ?? []);
  for (const name of disabled) {
    if (!(name in CROSS_CUTTING)) {
      throw new StartupError(
        `Config file: "disable" names "${name}", which is not a built-in cross-cutting plugin.${didYouMean(name, Object.keys(CROSS_CUTTING))} They are: ${Object.keys(CROSS_CUTTING).join(', ')}.`,
      );
    }
  }
  const classes: PluginClass[] = [];
  for (const [name, load] of Object.entries(CROSS_CUTTING)) if (!disabled.has(name)) classes.push(recorded(await load(), `the built-in plugin "${name}"`));
  const vendors = config.plugins ?? (given.length > 0 ? [] : Object.keys(VENDORS));
  for (const ref of vendors) classes.push(...(await loadReference(ref, config.dir)));
  return [...classes, ...given];
}

async function loadReference(ref: string, dir: string): Promise<PluginClass[]> {
  const builtin = VENDORS[ref] ?? CROSS_CUTTING[ref];
  if (builtin !== undefined) return [recorded(await builtin(), `the built-in plugin "${ref}"`)];
  const isPath = ref.startsWith('.') || isAbsolute(ref);
  const builtins = `Built-in plugins: ${Object.keys(VENDORS).join(', ')}; others are module paths (./my-plugin.js) or installed packages.`;
  if (isPath && !existsSync(resolve(dir, ref))) throw new StartupError(`Plugin "${ref}" cannot be found: ${resolve(dir, ref)} does not exist. ${builtins}`);
  let url: string;
  try {
    // The package resolver loads only when a plugin is named by package: most servers never need it. It
    // resolves from a file name in `dir` that need not exist; the messages below never show it.
    url = isPath ? pathToFileURL(resolve(dir, ref)).href : (await import('import-meta-resolve')).resolve(ref, pathToFileURL(join(dir, 'noop.js')).href);
  } catch {
    throw new StartupError(
      `Plugin "${ref}" cannot be found: no installed package of that name is visible from ${dir}.${didYouMean(ref, Object.keys(VENDORS))} ${builtins}`,
    );
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new StartupError(`Plugin "${ref}" failed to load: ${(error as Error).message}`, { cause: error });
  }
  const found = [
    ...new Set(
      Object.values(mod)
        .flatMap((v) => (Array.isArray(v) ? v : [v]))
        .filter(isPluginClass),
    ),
  ];
  if (found.length === 0) {
    throw new StartupError(`Plugin "${ref}" exports no plugin class: export a class decorated with @Plugin (default or named export).`);
  }
  return found.map((cls) => recorded(cls, isPath ? `module ${fileURLToPath(url)}` : `package ${ref}`));
}

/** The class, with where it came from recorded for start-up errors that name it (two plugins of one name). */
function recorded(cls: PluginClass, origin: string): PluginClass {
  recordPluginOrigin(cls, origin);
  return cls;
}
