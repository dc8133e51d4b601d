/**
 * Where two texts first differ, as a message a person can read: the line and column, both versions of a few
 * lines around it (escaped, so invisible characters show), and the lengths. Undefined when they are equal.
 */
export function describeTextDifference(expected: string, actual: string, labels: [string, string] = ['reference', 'ours']): string | undefined {
  if (expected === actual) return undefined;
  const a = expected.split('\n');
  const b = actual.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const left = a[line] ?? '';
  const right = b[line] ?? '';
  let column = 0;
  while (column < left.length && column < right.length && left[column] === right[column]) column++;
  const window = (lines: string[]): string =>
    lines
      .slice(Math.max(0, line - 2), line + 3)
      .map(
        (text, i) =>
          `${String(Math.max(0, line - 2) + i + 1).padStart(6)}${Math.max(0, line - 2) + i === line ? ' >' : '  '} ${JSON.stringify(clip(text, column))}`,
      )
      .join('\n');
  return [
    `texts differ at line ${line + 1}, column ${column + 1} (${labels[0]}: ${expected.length} chars, ${a.length} lines; ${labels[1]}: ${actual.length} chars, ${b.length} lines)`,
    `--- ${labels[0]}`,
    window(a),
    `+++ ${labels[1]}`,
    window(b),
  ].join('\n');
}

/** Long lines are shown around the column where they differ. */
function clip(text: string, column: number): string {
  if (text.length <= 160) return text;
  const start = Math.max(0, column - 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, start + 160)}${start + 160 < text.length ? '…' : ''}`;
}
