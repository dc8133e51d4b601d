import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../core/logging/logger.js';
import { CoreSettings } from '../../core/config/core-settings.js';
import { resolveSettings, type Settings } from '../../core/config/settings.js';
import { mapLayer } from '../../core/config/sources.js';
import { AuthSettings } from '../../server/auth/auth-settings.js';
import { hashToken } from '../../server/auth/token-hash.js';

/** The auth settings (and core's, MCP_EGRESS_ALLOW among them) as the cascade would resolve them from these values. */
export function authSettings(values: Record<string, string>): Settings {
  return resolveSettings(
    [
      { name: 'core', schema: CoreSettings, sections: [] },
      { name: 'server', schema: AuthSettings, sections: [] },
    ],
    [mapLayer('test', values)],
    new Map(),
    () => {},
  );
}

/** A logger whose lines the test can read. */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger({ level: 'info', secrets: [], destination: { write: (l: string) => lines.push(l) } }), lines };
}

/** An HTTP request as the authenticator sees it: only its headers matter. */
export function requestWith(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

/** A tokens file (MCP_AUTH_TOKENS_FILE) in YAML: the SHA-256 of each token, never the token, with its subject and groups. */
export function tokensFileYaml(entries: ReadonlyArray<{ token: string; subject: string; groups?: readonly string[] }>): string {
  return `tokens:\n${entries.map((e) => `  - sha256: ${hashToken(e.token)}\n    subject: ${e.subject}\n    groups: [${(e.groups ?? []).join(', ')}]\n`).join('')}`;
}

/**
 * A fresh folder holding a tokens file for these callers, and the settings that make a server authenticate
 * against it (MCP_AUTH_MODE=tokens): the set-up of every test of an HTTP server with named principals.
 */
export function tokensFileFolder(
  prefix: string,
  entries: ReadonlyArray<{ token: string; subject: string; groups?: readonly string[] }>,
): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml(entries));
  return { dir, env: { MCP_AUTH_MODE: 'tokens', MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml') } };
}
