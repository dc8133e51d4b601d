import { hostname } from 'node:os';
import { SERVER_NAME } from '../../core/version.js';

/**
 * How `serve` reports that it could not start. Its stderr is a log stream (an MCP client's log pane, a
 * container's log): there the reason is one more JSON line, at pino's fatal level, like every other line. A
 * person running it in a terminal gets the plain sentence the other commands print (rethrown to main).
 */
export function reportStartupFailure(error: unknown): void {
  if (process.stderr.isTTY) throw error;
  const msg = error instanceof Error ? error.message : String(error);
  // The logger's base fields, so this line too says which process (worker, replica) could not start.
  process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), name: SERVER_NAME, pid: process.pid, hostname: hostname(), msg })}\n`);
  process.exitCode = 1;
}
