import type { DependencyContainer } from 'tsyringe';
import { StartupError } from '../errors/tool-error.js';

/** Who provides a service: a plugin by name, or the server itself (the kernel's own TOKENS). */
type Provider = { plugin: string } | { server: true };

const named = (provider: Provider): string => ('plugin' in provider ? `plugin "${provider.plugin}"` : 'the server itself');
const shown = (token: string | symbol): string => (typeof token === 'string' ? `"${token}"` : String(token));

/**
 * The services registered in the kernel's container, and who registered each. A token is provided once: a
 * second provider would silently replace the first for every plugin that boots after it (two policy plugins,
 * say, each with its own approvals), so it fails start-up naming both, before anything is replaced.
 */
export class ProvidedServices {
  private readonly providers = new Map<string | symbol, Provider>();

  constructor(private readonly container: DependencyContainer) {}

  /** The kernel's own services (settings, store, clock...), registered before any plugin is built. */
  serve(token: string, value: unknown): void {
    this.register(token, value, { server: true });
  }

  /** A plugin's `BootContext.provide`. */
  provide(plugin: string, token: string | symbol, value: unknown): void {
    this.register(token, value, { plugin });
  }

  private register(token: string | symbol, value: unknown, provider: Provider): void {
    const first = this.providers.get(token);
    if (first !== undefined) {
      const again = 'plugin' in first && 'plugin' in provider && first.plugin === provider.plugin;
      throw new StartupError(
        again
          ? `Plugin "${provider.plugin}" provides ${shown(token)} twice: provide each service once, in boot().`
          : `${'plugin' in provider ? `Plugin "${provider.plugin}"` : 'The server'} provides ${shown(token)}, which ${named(first)} already provides: a service has one provider. Load only one of them (the config file's plugins), or give one service another token.`,
      );
    }
    this.providers.set(token, provider);
    this.container.register(token, { useValue: value });
  }
}
