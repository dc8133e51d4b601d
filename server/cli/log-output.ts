import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import { prettyLogLines, type LogDestination } from './pretty-log.js';

export type { LogDestination } from './pretty-log.js';

/** How log lines are written: for collectors (JSON, pino's format) or for a person at a terminal. */
export const LogOutputSettings = Type.Object({
  LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
    default: 'auto',
    description:
      'Log lines on stderr: json (one JSON object a line, pino format), pretty (time, level, message and fields, for a person), or auto: pretty on a terminal, json otherwise.',
  }),
});

/** Whether a person reads stderr: a terminal, not a pipe, a file or a container's log. */
export function stderrIsTerminal(): boolean {
  return process.stderr.isTTY === true;
}

/**
 * The destination of the log lines these settings ask for: undefined for JSON (the logger's own, stderr), or a
 * formatter writing plain lines to stderr. `auto` follows the pino convention for machines (JSON whenever
 * stderr is a pipe, a file or a container log) and spares a person at a terminal the JSON.
 */
export function logDestination(settings: Settings): LogDestination | undefined {
  const format = settings.of(LogOutputSettings).LOG_FORMAT;
  const pretty = format === 'pretty' || (format === 'auto' && stderrIsTerminal());
  return pretty ? prettyLogLines((text) => process.stderr.write(text)) : undefined;
}

/** A destination that drops every line: the commands that answer a person print no log line unless asked. */
export const NO_LOG_LINES: LogDestination = { write: () => true };
