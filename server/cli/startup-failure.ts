import { hostname } from 'node:os';
import { SERVER_NAME } from '../../core/version.js';
import { stderrIsTerminal } from './log-output.js';

/**
 * How `serve` reports that it could not start: always one plain sentence on stderr, naming what failed and the
 * setting that decides it (main prints it as `mcp-devtools: <why>`, as every command's error). When stderr is
 * not a terminal, an MCP client started the server or a container runs it, and stderr is a log stream too:
 * collectors parse its JSON lines and alert on level 60, and would pass over a line of plain text. So the same
 * reason goes there first as pino's fatal line, then the sentence, last, where an MCP client's log pane and
 * `docker logs | tail -1` show it.
 */
export function reportStartupFailure(error: unknown): never {
  if (!stderrIsTerminal()) {
    const msg = error instanceof Error ? error.message : String(error);
    // The logger's base fields, so this line too says which process (worker, replica) could not start.
    process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), name: SERVER_NAME, pid: process.pid, hostname: hostname(), msg })}\n`);
  }
  throw error;
}
