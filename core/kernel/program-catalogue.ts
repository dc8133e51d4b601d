import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Principal } from '../identity/principal.js';
import type { ToolDescriptor } from '../plugin/contract.js';
import type { ProgressReporter } from '../plugin/tool-context.js';
import { PROGRAM_PROTOCOL_VERSION, type ToolCatalogue } from '../plugin/tool-catalogue.js';
import type { Reach } from './tool-selection.js';

/** The kernel's public methods a catalogue uses (the Kernel class, named structurally: it imports this file). */
interface CallingKernel {
  readonly dynamicToolsets: boolean;
  enabledToolsets(principal: Principal): Promise<ReadonlySet<string>>;
  listTools(protocolVersion?: string, enabled?: ReadonlySet<string>, reach?: Reach): ToolDescriptor[];
  toolsetOf(tool: string): string | undefined;
  call(
    name: string,
    args: Record<string, unknown>,
    principal: Principal,
    options: { protocolVersion: string; reach: Reach; requestId?: string; signal?: AbortSignal; progress?: ProgressReporter },
  ): Promise<CallToolResult>;
}

/**
 * The ToolCatalogue of a kernel: its public `listTools` and `call`, with the reach of a program. Nothing else: an
 * inner call is ordered by the kernel like any other (one place orders a call).
 */
export function programCatalogue(kernel: CallingKernel): ToolCatalogue {
  const enabledOf = async (principal: Principal): Promise<ReadonlySet<string> | undefined> =>
    kernel.dynamicToolsets ? kernel.enabledToolsets(principal) : undefined;
  return {
    reachable: async (principal) =>
      kernel
        .listTools(PROGRAM_PROTOCOL_VERSION, await enabledOf(principal), 'program')
        .map((descriptor) => ({ descriptor, toolset: kernel.toolsetOf(descriptor.name) ?? descriptor.name })),
    call: (name, args, principal, options = {}) =>
      kernel.call(name, args, principal, {
        protocolVersion: PROGRAM_PROTOCOL_VERSION,
        reach: 'program',
        ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.progress === undefined ? {} : { progress: options.progress }),
      }),
  };
}
