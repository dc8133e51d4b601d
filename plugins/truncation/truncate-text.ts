import { MAX_TEXT_CHARS } from '../../core/result/text-limit.js';

export { MAX_TEXT_CHARS };
/** A newline this close to the limit is a better place to cut than mid-line. */
const NEWLINE_WINDOW = 500;

/**
 * Cuts text for the model with the reference servers' wording, byte for byte, naming the file that holds the
 * whole text when one was written. Text within the limit is returned unchanged.
 */
export function truncateForModel(text: string, savedPath: string | undefined): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  return cutFromHead(text.substring(0, CUT_HEAD_CHARS), text.length, savedPath);
}

/** The characters of a text the cut looks at: where it falls depends on nothing after them. */
export const CUT_HEAD_CHARS = MAX_TEXT_CHARS + 1;

/**
 * The cut text of one of `length` characters (more than MAX_TEXT_CHARS) from its first CUT_HEAD_CHARS
 * characters alone: what the model is shown of a text that was written out in pieces and never held whole.
 */
export function cutFromHead(head: string, length: number, savedPath: string | undefined): string {
  const newline = head.lastIndexOf('\n', MAX_TEXT_CHARS);
  const cut = newline > MAX_TEXT_CHARS - NEWLINE_WINDOW ? newline : MAX_TEXT_CHARS;
  const kept = detached(head.substring(0, cut));
  const guidance = [
    '',
    '---',
    '## Response Truncated',
    '',
    `This response was truncated to ~${Math.round(kept.length / 4000)}k tokens (${Math.round((kept.length / length) * 100)}% of original ${Math.round(length / 1000)}k chars).`,
    '',
    '**To access the complete data:**',
  ];
  if (savedPath !== undefined) guidance.push(`- The full raw API response is saved at: \`${savedPath}\``);
  guidance.push(
    '- Consider refining your request with more specific filters or selecting fewer fields',
    '- For paginated data, use smaller page sizes or specific identifiers',
    '- When searching, use more targeted queries to reduce result sets',
  );
  return kept + guidance.join('\n');
}

/**
 * A copy of `part` sharing no storage with the string it was cut from. V8 keeps a substring as a view of its
 * parent, so the cut would hold the whole text (tens of MiB for a large rendering) for the rest of the call.
 * UTF-16LE keeps every code unit as it is, a lone surrogate too.
 */
function detached(part: string): string {
  return Buffer.from(part, 'utf16le').toString('utf16le');
}

export function needsTruncation(text: string): boolean {
  return text.length > MAX_TEXT_CHARS;
}
