import type { Kernel } from '../../core/kernel/kernel.js';

/**
 * The order one tool's call runs in, from the transport's request to the answer, as text a reviewer reads top
 * to bottom: what the MCP adapter converts, the kernel's call-wide steps (outermost first), the tool's stage
 * chain with its upstream interceptors where the handler sends its requests, and the adapter's conversion back.
 * Everything between the two conversions is placed by core/pipeline/pipeline.ts.
 */
export function callOrderText(kernel: Kernel, tool: string): string {
  const chain = kernel.pipelineOf(tool);
  if (chain === undefined) throw new Error(`${tool} is not loaded`);
  const { callSteps } = kernel.pipelineOrder();
  const lines = [
    `${tool}: one call, from the transport's request to the answer (core/pipeline/pipeline.ts)`,
    'transport        a tools/call request (stdio or Streamable HTTP), authenticated',
    "mcp adapter      converts it into a kernel call: principal, revision, ids, the client's channel",
    ...callSteps.map((step, i) => `${i === 0 ? 'call-wide' : ''}`.padEnd(17) + step),
  ];
  let previous = '';
  for (const entry of chain.stages) {
    const [stage, name] = entry.split(':') as [string, string];
    lines.push(`${stage === previous ? '' : `stage ${stage}`}`.padEnd(17) + name);
    previous = stage;
    if (stage === 'upstream') {
      chain.interceptors.forEach((interceptor, i) => lines.push(`${i === 0 ? '  interceptors' : ''}`.padEnd(17) + interceptor));
    }
  }
  lines.push("mcp adapter      the result, projected for the client's era");
  return `${lines.join('\n')}\n`;
}
