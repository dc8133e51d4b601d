import type { CallToolResult } from '@modelcontextprotocol/client';

const PROVENANCE = 'mcp-devtools/provenance';

/** The fence a result states in `_meta` (undefined when nothing was fenced), as its opening and closing marks. */
export function fenceOf(result: CallToolResult): { open: string; close: string } | undefined {
  const stated = (result._meta?.[PROVENANCE] as { fence?: string | null } | undefined)?.fence;
  if (typeof stated !== 'string') return undefined;
  const [open, close] = stated.split('…') as [string, string];
  return { open, close };
}

/**
 * A result's text without the fence around untrusted text (its header line, and every opening and closing
 * mark of the boundary the result states): what the tool showed before labels, for tests of the text itself.
 */
export function unfencedText(result: CallToolResult): string {
  const text = (result.content[0] as { text: string }).text;
  const fence = fenceOf(result);
  if (fence === undefined) return text;
  return text.replace(`Untrusted text is fenced: ${fence.open}…${fence.close}\n`, '').split(fence.open).join('').split(fence.close).join('');
}
