import type { Kernel } from '../../core/kernel/kernel.js';
import { VERSION } from '../../core/version.js';

/** Whether a person started the stdio server at a shell, rather than an MCP client over pipes. */
export function startedAtTerminal(): boolean {
  return process.stdin.isTTY === true || process.stderr.isTTY === true;
}

/**
 * What a person who ran `mcp-devtools` at a shell reads once on stderr: the server waits for JSON-RPC, which
 * looks like a hang without it. What it serves, and how to stop it.
 */
export function stdioBanner(kernel: Kernel): string {
  const served = kernel.servedDefinitions();
  const toolsets = [...new Set(served.map((d) => kernel.toolsetOf(d.spec.name) ?? d.plugin))];
  const what = kernel.dynamicToolsets
    ? `${count(served.length, 'tool')}, and the toolsets each caller enables with enable_toolset`
    : `${count(served.length, 'tool')} in ${count(toolsets.length, 'toolset')} (${toolsets.join(', ')})`;
  const readOnly = kernel.settings.get<boolean>('MCP_READ_ONLY') ? ', read-only' : '';
  return (
    `mcp-devtools ${VERSION} is serving MCP over stdio: ${what}${readOnly}.\n` +
    vendorsLeftOut(kernel) +
    'An MCP client talks to it on stdin and stdout, so there is nothing to type here. Ctrl+C (or Ctrl+D) stops it.\n'
  );
}

/**
 * A first run with no credentials serves no vendor's tools: the person at the terminal is told why and what to
 * set, not left with "0 tools".
 */
function vendorsLeftOut(kernel: Kernel): string {
  const vendors = kernel.defaultVendors();
  if (vendors === undefined) return '';
  const left = Object.keys(vendors.notServed);
  return (
    `Not serving ${left.join(', ')}: no credentials configured for ${left.length === 1 ? 'it' : 'them'}. ` +
    "Set a vendor's token (GITHUB_TOKEN, CIRCLECI_TOKEN, ATLASSIAN_API_TOKEN...: docs/configuration.md), or serve its tools anyway with --toolsets default.\n"
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
