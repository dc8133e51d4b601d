import { existsSync, readFileSync } from 'node:fs';
import { eventually } from './enterprise-fixture.js';

export interface AuditLine {
  tool: string;
  outcome: { status: 'ok' } | { status: 'error'; code: string };
}

export function auditLines(path: string): AuditLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditLine);
}

/**
 * Waits until the server has finished and audited a call of `tool` that ended with `code` (the audit record is
 * written when a call ends, however it ends): how a test learns that a cancelled call has stopped.
 */
export async function auditedOutcome(path: string, tool: string, code: string): Promise<void> {
  const matches = (r: AuditLine): boolean => r.tool === tool && r.outcome.status === 'error' && r.outcome.code === code;
  await eventually(`a call of ${tool} ending in ${code} is audited in ${path}`, () => auditLines(path).some(matches), 15_000);
}
