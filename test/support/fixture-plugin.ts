import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled fixture vendor plugin, for config files that load a plugin by path. */
export const FIXTURE_PLUGIN_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins/fixture-vendor.js');

/** A config file that loads only the fixture vendor (and the cross-cutting built-ins). */
export function fixtureConfig(extra: Record<string, unknown> = {}): { content: string } {
  return { content: JSON.stringify({ plugins: [FIXTURE_PLUGIN_PATH], ...extra }) };
}
