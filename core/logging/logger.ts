import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Keys whose values never reach a log line, wherever they appear. */
const REDACT_PATHS = [
  'authorization', '*.authorization', '*.Authorization', 'headers.authorization', 'headers["circle-token"]',
  'token', '*.token', 'password', '*.password', 'secret', '*.secret', 'cookie', '*.cookie',
];

export interface LoggerOptions {
  level: string;
  /** Configured secret values; any occurrence in a log line is replaced, whatever key it hides under. */
  secrets: readonly string[];
  /** Where JSON lines go; stderr unless a test captures them. */
  destination?: NodeJS.WritableStream | { write(s: string): unknown };
}

/**
 * The one logger: pino JSON lines on stderr (stdout carries JSON-RPC on stdio), key-based redaction compiled
 * once, and a last pass that scrubs configured secret values from the serialized line. Children inherit both:
 * never give a child its own `redact`, which would replace the parent's.
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = [...new Set(options.secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const scrub = (line: string): string => {
    let out = line;
    for (const s of secrets) {
      for (const form of [s, JSON.stringify(s).slice(1, -1)]) if (out.includes(form)) out = out.split(form).join('[REDACTED]');
    }
    return out;
  };
  return pino(
    {
      level: options.level,
      base: { name: 'mcp-devtools' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      hooks: secrets.length > 0 ? { streamWrite: scrub } : {},
    },
    (options.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 2, sync: true }),
  );
}
