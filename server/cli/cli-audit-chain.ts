import { hostname } from 'node:os';
import { open, stat, unlink } from 'node:fs/promises';
import { AuditLog, type AuditSink } from '../../plugins/policy/index.js';

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a CLI that died mid-write: it is taken over. */
const STALE_LOCK_MS = 30_000;

/** The chain the CLI writes on this host: `<log>.cli-<host>`, one per machine, beside the servers' own. */
export function cliWriter(): string {
  return `cli-${
    hostname()
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 56) || 'host'
  }`;
}

/**
 * The audit log as `mcp-devtools approvals` records decisions it makes through the store (MCP_AUDIT_LOG, as
 * the server's config names it): in a chain of its own, since a server's chain has one writer, the server.
 * Each record is appended under a lock file (`<chain>.lock`, created exclusively), so two commands run at once
 * on one host take turns and the chain stays whole; `audit verify` and the console read it with the others.
 */
export function cliAuditSink(logPath: string): AuditSink {
  return {
    append: async (entry) => {
      const writer = cliWriter();
      const lock = `${logPath}.${writer}.lock`;
      await acquire(lock);
      try {
        const log = await AuditLog.open(logPath, writer);
        try {
          return await log.append(entry);
        } finally {
          await log.close();
        }
      } finally {
        await unlink(lock).catch(() => {});
      }
    },
  };
}

async function acquire(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await unlink(lock).catch(() => {});
    else if (Date.now() > deadline) throw new Error(`${lock} has been held for ${Math.round(age / 1000)} s by another mcp-devtools command; try again.`);
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
