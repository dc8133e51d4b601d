import { StartupError } from '../errors/tool-error.js';
import type { PluginSpec } from '../plugin/contract.js';
import type { PluginClass } from '../plugin/metadata.js';
import { pluginOrigin } from '../plugin/plugin-origin.js';

/**
 * Orders plugins so each boots after the plugins it depends on, keeping the given order where free.
 * A duplicate name, a missing dependency or a cycle fails start-up naming the plugins involved.
 */
export function orderByDependencies<T extends { spec: PluginSpec; cls?: PluginClass }>(plugins: readonly T[]): T[] {
  const byName = new Map<string, T>();
  for (const p of plugins) {
    const first = byName.get(p.spec.name);
    if (first !== undefined) refuseSameName(first, p);
    byName.set(p.spec.name, p);
  }
  for (const p of plugins) {
    for (const dep of p.spec.dependsOn ?? []) {
      if (!byName.has(dep)) {
        throw new StartupError(`Plugin "${p.spec.name}" needs plugin "${dep}", which is not loaded. Add "${dep}" to the config file's plugins.`);
      }
    }
  }
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: T, path: string[]): void => {
    const s = state.get(p.spec.name);
    if (s === 'done') return;
    if (s === 'visiting') throw new StartupError(`Plugins depend on each other in a cycle: ${[...path, p.spec.name].join(' -> ')}.`);
    state.set(p.spec.name, 'visiting');
    for (const dep of p.spec.dependsOn ?? []) visit(byName.get(dep)!, [...path, p.spec.name]);
    state.set(p.spec.name, 'done');
    ordered.push(p);
  };
  for (const p of plugins) visit(p, []);
  return ordered;
}

/**
 * Two plugins of one name: the same class listed twice, or two classes, each named with where it came from
 * (its module, or the built-in it shadows) and what to change.
 */
function refuseSameName(first: { spec: PluginSpec; cls?: PluginClass }, second: { spec: PluginSpec; cls?: PluginClass }): never {
  const name = first.spec.name;
  if (first.cls === second.cls || first.cls === undefined || second.cls === undefined) {
    throw new StartupError(`Plugin "${name}" is loaded twice; list it once in the config file.`);
  }
  const describe = (cls: PluginClass): string => `${cls.name || 'an anonymous class'} (${pluginOrigin(cls)})`;
  throw new StartupError(
    `Two plugins are named "${name}": ${describe(first.cls)} and ${describe(second.cls)}. A plugin's name is what config files, toolsets, settings sections and dependsOn use, so it must be unique: rename one in its @Plugin({ name }) (such as "acme-${name}"), or load only one of them.`,
  );
}

/** Runs `work`, failing with a message that names the plugin if it throws or outlasts `ms`. */
export async function withTimeout<T>(what: string, ms: number, work: () => Promise<T> | T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartupError(`${what} did not finish within ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(`${what} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
