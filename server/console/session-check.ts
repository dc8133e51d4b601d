import type { Logger } from '../../core/logging/logger.js';
import type { Clock } from '../../core/store/key-value-store.js';
import type { ConsoleSession, SessionStore } from './sessions.js';

/** Who the session's credential names now: the subject and groups, or why it names no one any more. */
export type Recheck = { subject: string; groups: readonly string[] } | { ended: string };

/** Asks whatever let the session in (the tokens file, the identity provider) who its credential names now. */
export type CredentialCheck = (id: string, session: ConsoleSession) => Promise<Recheck>;

/** A session found for a request: the session, or that it has just been ended by its re-check. */
export type Lookup = { session: ConsoleSession } | { ended: true } | undefined;

/**
 * Console sessions that last no longer than what let them in. On a request, a session whose credential was last
 * checked `intervalMs` ago or more (MCP_CONSOLE_SESSION_RECHECK_SECONDS, at most 60 s) is checked again: a token
 * gone from the tokens file, an OIDC access token expired or refused by the provider, or any change to the
 * subject or groups ends it (the approver signs in again, as who they are now). So a revocation, or an
 * approver's removal from the approvers group, ends every session of theirs within the interval, on every
 * replica: the check time is kept with the session in the shared store.
 */
export class CheckedSessions {
  constructor(
    private readonly sessions: SessionStore,
    private readonly check: CredentialCheck,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  async lookup(id: string | undefined): Promise<Lookup> {
    const session = await this.sessions.get(id);
    if (session === undefined || id === undefined) return undefined;
    const now = this.clock.now();
    const checkedAt = Date.parse(session.checkedAt);
    // A session without a check time (written before re-checks existed) is checked now.
    if (now - checkedAt < this.intervalMs && checkedAt <= now) return { session };
    let found: Recheck;
    try {
      found = await this.check(id, session);
    } catch (error) {
      // Fail closed: a credential that cannot be checked does not keep a session open.
      found = { ended: `its credential could not be checked (${(error as Error).message})` };
    }
    const why = 'ended' in found ? found.ended : changeOf(session.principal, found);
    if (why !== undefined) {
      await this.sessions.destroy(id);
      this.logger.info({ subject: session.principal.subject, why }, 'console session ended');
      return { ended: true };
    }
    const checked = { ...session, checkedAt: new Date(now).toISOString() };
    await this.sessions.update(id, checked);
    return { session: checked };
  }
}

/** What changed between the principal a session signed in as and the one its credential names now. */
function changeOf(before: ConsoleSession['principal'], now: { subject: string; groups: readonly string[] }): string | undefined {
  if (now.subject !== before.subject) return `its credential now names ${now.subject}`;
  const was = [...before.groups].sort().join(',');
  const is = [...now.groups].sort().join(',');
  return was === is ? undefined : `its groups changed from [${was}] to [${is}]`;
}
