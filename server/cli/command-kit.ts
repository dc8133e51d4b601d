import type { CommandKit } from '../../core/plugin/contributions.js';
import { resolveConfig } from '../bootstrap/resolve-config.js';
import { openConfiguredStore } from '../bootstrap/start-kernel.js';
import { startCommandKernel } from './command-kernel.js';
import { invocationFrom, withConfigOptions, withVerboseOption } from './common-options.js';

/**
 * What a contributed command is given by the CLI's frame: the options every command shares, and the configuration,
 * store and kernel resolved as the built-in commands resolve them (so `--config`, `--set` and the environment mean
 * the same to every verb).
 */
export const commandKit: CommandKit = {
  withConfigOptions,
  withVerboseOption,
  settings: async (options, overrides = {}) => (await resolveConfig(invocationFrom(options, overrides))).settings,
  openStore: openConfiguredStore,
  startKernel: async (options, overrides = {}) => {
    const { kernel } = await startCommandKernel(invocationFrom(options, overrides), options);
    return { kernel, close: () => kernel.close() };
  },
};
