import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import { secretScrubber } from '../result/secret-scrubber.js';

export type { Logger } from 'pino';

/** Keys whose values never reach a log line, wherever they appear. */
const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'headers["circle-token"]',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'cookie',
  '*.cookie',
];

export interface LoggerOptions {
  level: string;
  /** Configured secret values; any occurrence in a log line is replaced, whatever key it hides under. */
  secrets: readonly string[];
  /** Where JSON lines go; stderr unless a test captures them. */
  destination?: NodeJS.WritableStream | { write(s: string): unknown };
  /** Fields every line carries besides name, pid and hostname (a `--workers` worker's number). */
  fields?: Readonly<Record<string, string | number>>;
}

/**
 * The one logger: pino JSON lines on stderr (stdout carries JSON-RPC on stdio), key-based redaction compiled
 * once, and a last pass that scrubs configured secret values from the serialized line. Children inherit both:
 * never give a child its own `redact`, which would replace the parent's.
 */
export function createLogger(options: LoggerOptions): Logger {
  // A log line is JSON: a secret with characters JSON escapes appears in its escaped form.
  const forms = options.secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  const scrub = secretScrubber(forms);
  return pino(
    {
      level: options.level,
      // pino's own base is pid and hostname; a base given here replaces it, so they are named again: lines of
      // workers and replicas must say which process wrote them.
      base: { name: 'mcp-devtools', pid: process.pid, hostname: hostname(), ...options.fields },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      hooks: forms.length > 0 ? { streamWrite: scrub } : {},
    },
    (options.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: true }),
  );
}
