/** Where a line goes: pino writes each serialized line (secrets already scrubbed) with `write`. */
export interface LogDestination {
  write(line: string): unknown;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };

/** Fields every line has that a person at a terminal does not need: the level and time are shown otherwise. */
const BASE_FIELDS = new Set(['level', 'time', 'msg', 'name', 'pid', 'hostname']);

/**
 * pino's JSON lines rewritten for a person: `12:04:05.120 WARN  message key=value ...`, in local time. A string
 * value is shown as it is when it holds no space or quote, quoted otherwise; other values as JSON. An error's
 * stack follows on indented lines. A line that is not pino's JSON is passed through unchanged.
 */
export function prettyLogLines(write: (text: string) => unknown): LogDestination {
  return {
    write(line: string): unknown {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return write(line);
      }
      return write(`${formatRecord(record)}\n`);
    },
  };
}

export function formatRecord(record: Record<string, unknown>): string {
  const time = typeof record.time === 'number' ? clock(new Date(record.time)) : '--:--:--.---';
  const level = LEVELS[record.level as number] ?? String(record.level).padEnd(5);
  const fields = Object.entries(record)
    .filter(([key, value]) => !BASE_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const stack = stackOf(record.err);
  return [`${time} ${level} ${String(record.msg ?? '')}`, ...fields].join(' ') + (stack === undefined ? '' : `\n${stack}`);
}

function clock(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function fieldValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object' && 'stack' in value) return JSON.stringify((value as { message?: unknown }).message ?? '');
  return JSON.stringify(value);
}

function stackOf(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object' || typeof (err as { stack?: unknown }).stack !== 'string') return undefined;
  return (err as { stack: string }).stack
    .split('\n')
    .slice(1)
    .map((l) => `    ${l.trim()}`)
    .join('\n');
}
