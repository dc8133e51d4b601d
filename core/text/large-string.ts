import { isAscii } from 'node:buffer';

/**
 * Bytes past which V8 keeps a string in its large-object space, on memory mapped afresh for that string alone.
 * On this machine fresh pages cost about 17 us each (4 KiB): decoding runs at 5-7 GB/s below this size and at
 * about 200 MB/s above it, and flattening a rope past it costs the same. The size is in bytes, not characters:
 * a text with one character outside Latin-1 is UTF-16, two bytes a character, so past it from 64K characters on
 * (a 100 KB Jira page with 60 curly quotes: decoded in 1.2 ms, against 0.2 ms once they are made ASCII).
 */
export const LARGE_STRING_BYTES = 128 * 1024;

/**
 * At most how many bytes the text of these UTF-8 bytes takes once decoded: one a character when they are all
 * ASCII, else two (an upper bound: V8 stores a text as UTF-16 once any character is past Latin-1, and a text
 * has no more characters than bytes). Checked in a few microseconds for a 367 KB page.
 */
export function decodedTextBytes(bytes: Uint8Array): number {
  return isAscii(bytes) ? bytes.length : 2 * bytes.length;
}
