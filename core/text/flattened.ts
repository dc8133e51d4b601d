/**
 * `text`, made one flat string in place. A string built with `+=` is a chain of its parts (a rope): about 9
 * bytes a character for a rendering's short lines against 1 flat (16K-character pieces, measured), and a piece
 * kept for a while (a rendering's pieces wait for the truncate stage) is copied by every young collection it
 * lives through, chain and all. V8 flattens a rope when a character of it is read, as the writes later would.
 */
export function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}
