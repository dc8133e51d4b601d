import type { CallToolResult, LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/server';
import { SERVER_NAME } from '../version.js';

/** The levels in order of severity, as RFC 5424 and the protocol list them. */
const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Whether a message at `level` goes to a client whose threshold is `threshold` (none: nothing goes). */
export const reaches = (level: LoggingLevel, threshold: LoggingLevel | undefined): boolean =>
  threshold !== undefined && SEVERITY.indexOf(level) >= SEVERITY.indexOf(threshold);

/** What a client that asked for log messages is told of one tool call. */
export interface CallMessages {
  started(): Promise<void>;
  ended(result: CallToolResult, durationMs: number): Promise<void>;
}

/**
 * The `notifications/message` of one tool call, for a client whose threshold is `threshold` (from
 * `logging/setLevel` in the 2025 era, from the request's `_meta` log level in 2026-07-28; none: nothing is
 * sent): `debug` when it starts, `info` when it answers, `warning` with the error's code and first line when
 * it ends in an error result. Each goes on the request's own channel, before the result; one that cannot be
 * sent changes nothing about the call.
 */
export function callMessages(
  tool: string,
  threshold: LoggingLevel | undefined,
  notify: (notification: { method: 'notifications/message'; params: LoggingMessageNotificationParams }) => Promise<void>,
): CallMessages {
  const send = async (level: LoggingLevel, data: Record<string, unknown>): Promise<void> => {
    if (!reaches(level, threshold)) return;
    await notify({ method: 'notifications/message', params: { level, logger: SERVER_NAME, data } }).catch(() => {});
  };
  return {
    started: () => send('debug', { message: `${tool} started`, tool }),
    ended: (result, durationMs) => {
      const duration = Math.round(durationMs);
      if (result.isError !== true) return send('info', { message: `${tool} answered in ${duration} ms`, tool, outcome: 'ok', durationMs: duration });
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      const code = /^Code: (\S+)$/m.exec(text)?.[1] ?? 'error';
      const reason = text.split('\n', 1)[0]!.replace(/^Error: /, '');
      return send('warning', { message: `${tool} failed (${code}): ${reason}`, tool, outcome: code, durationMs: duration });
    },
  };
}
