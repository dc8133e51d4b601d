import { readToolSpecs } from '../../core/plugin/metadata.js';
import { VENDORS } from './builtin-plugins.js';

/**
 * The built-in vendor plugin that has `tool` although it is not loaded (a config file's `plugins` leaves it
 * out), so a mistake can be answered with what to add. Loads the plugins' classes only, never boots them.
 */
export async function unloadedBuiltinOwner(tool: string, loaded: readonly string[]): Promise<string | undefined> {
  for (const [name, load] of Object.entries(VENDORS)) {
    if (loaded.includes(name)) continue;
    if (readToolSpecs(await load()).some((t) => t.spec.name === tool)) return name;
  }
  return undefined;
}
