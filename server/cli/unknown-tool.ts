import type { Kernel } from '../../core/kernel/kernel.js';
import { unloadedBuiltinOwner } from '../bootstrap/unloaded-tools.js';

/**
 * What the command line says about a tool the server does not offer: the kernel's own answer (the nearest
 * names, or the setting that hides it), or, for a tool of a built-in plugin the config file does not load,
 * which plugin to add.
 */
export async function unknownToolMessage(tool: string, kernel: Kernel, kernelMessage: string, configPath: string | undefined): Promise<string> {
  if (kernel.definitions().some((d) => d.spec.name === tool)) return kernelMessage;
  const owner = await unloadedBuiltinOwner(tool, kernel.plugins);
  if (owner === undefined) return `${kernelMessage} \`mcp-devtools tools\` lists the tools served.`;
  return `Unknown tool: ${tool}: it belongs to the built-in plugin "${owner}", which ${configPath === undefined ? 'is not loaded' : `the config file ${configPath} does not load`}. Add "${owner}" to its "plugins".`;
}
