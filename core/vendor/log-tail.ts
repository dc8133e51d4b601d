export interface LogTail {
  /** The last lines, joined with `\n` (CRLF normalised), without a trailing newline. */
  text: string;
  /** How many lines `text` holds. */
  shown: number;
  /** How many lines the whole log has. */
  total: number;
  /** True when fewer lines than asked are shown because they would not fit in `maxChars`. */
  clipped: boolean;
}

/**
 * The last `wanted` lines of a log, at most `maxChars` characters long, found by scanning back from the end:
 * a log of tens of MiB is never split into an array of lines or copied whole. When even the last line is
 * longer than `maxChars`, its end is kept.
 *
 * Example: tailOfLog('a\nb\nc\n', 2, 100) -> {text: 'b\nc', shown: 2, total: 3, clipped: false}.
 */
export function tailOfLog(log: string, wanted: number, maxChars: number): LogTail {
  let end = log.length;
  if (log.endsWith('\n')) end -= 1;
  if (end === 0) return { text: '', shown: 0, total: 0, clipped: false };
  const total = countLines(log, end);
  let start = end; // the taken lines are log[start, end)
  let shown = 0;
  let clipped = false;
  while (shown < wanted && (shown === 0 || start > 0)) {
    // The next line up ends just before `start` (at `end` for the first, else before the newline at start - 1).
    const searchFrom = shown === 0 ? end - 1 : start - 2;
    const lineStart = searchFrom < 0 ? 0 : log.lastIndexOf('\n', searchFrom) + 1;
    if (end - lineStart > maxChars) {
      clipped = true;
      if (shown === 0) {
        start = end - maxChars;
        shown = 1;
      }
      break;
    }
    start = lineStart;
    shown += 1;
  }
  return { text: log.slice(start, end).replace(/\r\n/g, '\n').replace(/\r$/, ''), shown, total, clipped };
}

function countLines(log: string, end: number): number {
  let lines = 1;
  for (let i = log.indexOf('\n'); i !== -1 && i < end; i = log.indexOf('\n', i + 1)) lines += 1;
  return lines;
}
