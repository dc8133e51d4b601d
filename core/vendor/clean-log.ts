/**
 * Terminal escape sequences: CSI (colours, cursor moves: `ESC [ 31 m`), OSC (window titles, hyperlinks:
 * `ESC ] ... BEL` or `ESC ] ... ESC \`) and the two-character ones (`ESC c`, `ESC =`).
 */
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/**
 * A terminal's output as a terminal would have left it on screen, as plain text: escape sequences removed,
 * CRLF as LF, and a line redrawn with bare CRs (progress bars, spinners) reduced to what was drawn last.
 *
 * Example: cleanTerminalOutput('\u001b[32mok\u001b[0m\r\n10%\r50%\r100%\n') -> 'ok\n100%\n'.
 */
export function cleanTerminalOutput(raw: string): string {
  return raw
    .replace(ESCAPES, '')
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => (line.includes('\r') ? lastDrawn(line) : line))
    .join('\n');
}

/** What remains of a line redrawn with CR: the last non-empty segment. */
function lastDrawn(line: string): string {
  const segments = line.split('\r');
  for (let i = segments.length - 1; i >= 0; i--) if (segments[i] !== '') return segments[i]!;
  return '';
}

/**
 * Runs of the same line shown once, with how many times it repeated (a blank run becomes one blank line), so
 * a retry loop or a polling message does not push the failure out of the tail.
 *
 * Example: collapseRepeatedLines('wait\nwait\nwait\nfailed\n') -> 'wait  [repeated 3 times]\nfailed\n'.
 */
export function collapseRepeatedLines(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let run = 1;
    while (i + run < lines.length && lines[i + run] === lines[i]) run++;
    const line = lines[i]!;
    // The split leaves one empty string after a final newline: keep it, so the text still ends with one.
    const isFinalNewline = line === '' && i + run === lines.length;
    out.push(run > 1 && line !== '' ? `${line}  [repeated ${run} times]` : line);
    if (isFinalNewline && run > 1) out.push('');
    i += run;
  }
  return out.join('\n');
}
