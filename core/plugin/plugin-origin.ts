import type { PluginClass } from './metadata.js';

/**
 * Where each plugin class was loaded from, as the loader found it (`the built-in plugin "jira"`, `module
 * /srv/plugins/acme.js`, `package acme-devtools-plugin`): what a start-up error about two plugins of one name
 * shows, so the person can tell which line of their config file to change. A class nobody recorded was given
 * in-process (the test kit's `plugins`, a program embedding the kernel).
 */
const origins = new WeakMap<PluginClass, string>();

/** Records where `cls` came from; the first record of a class wins (a module may re-export another's class). */
export function recordPluginOrigin(cls: PluginClass, origin: string): void {
  if (!origins.has(cls)) origins.set(cls, origin);
}

/** Where `cls` came from, as recorded; `given in-process` otherwise. */
export function pluginOrigin(cls: PluginClass): string {
  return origins.get(cls) ?? 'given in-process';
}
