import { hostname } from 'node:os';
import { SERVER_NAME } from '../../core/version.js';
import { stderrIsTerminal } from './log-output.js';
import { formatRecord } from './pretty-log.js';

/** A start-up failure already said on stderr: main ends with exit code 1 without saying it again. */
export class ReportedStartupFailure extends Error {
  constructor(readonly reported: unknown) {
    super(reported instanceof Error ? reported.message : String(reported), { cause: reported });
    this.name = 'ReportedStartupFailure';
  }
}

/**
 * How `serve` reports that it could not start: one sentence on stderr, naming what failed and the setting that
 * decides it. At a terminal it is main's `mcp-devtools: <why>`, as every command's error. When stderr is not a
 * terminal, an MCP client started the server or a container runs it, and stderr is a log stream too: with JSON
 * log lines (LOG_FORMAT json or auto), collectors parse them and alert on level 60 and would pass over plain text,
 * so the reason goes there first as pino's fatal line, then the sentence, last, where an MCP client's log pane
 * and `docker logs | tail -1` show it. With LOG_FORMAT=pretty (from the environment: the settings may be what
 * failed) the log lines are for a person, so the reason is one pretty FATAL line, said once.
 */
export function reportStartupFailure(error: unknown, env: Readonly<Record<string, string | undefined>> = process.env): never {
  if (stderrIsTerminal()) throw error;
  const msg = error instanceof Error ? error.message : String(error);
  // The logger's base fields, so this line too says which process (worker, replica) could not start.
  const record = { level: 60, time: Date.now(), name: SERVER_NAME, pid: process.pid, hostname: hostname(), msg };
  if (env.LOG_FORMAT?.trim() === 'pretty') {
    process.stderr.write(`${formatRecord(record)}\n`);
    throw new ReportedStartupFailure(error);
  }
  process.stderr.write(`${JSON.stringify(record)}\n`);
  throw error;
}
