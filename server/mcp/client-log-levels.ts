import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { Principal } from '../../core/identity/principal.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';

/** How long an HTTP caller's `logging/setLevel` holds without being sent again. */
export const CLIENT_LOG_LEVEL_TTL_MS = 12 * 60 * 60 * 1000;
const NAMESPACE = 'client-log-level';

/**
 * The level a 2025-era client asked for with `logging/setLevel`: the least severe `notifications/message` it
 * is sent. Never set means none is sent. The server's own log (stderr, LOG_LEVEL) is the operator's and is
 * not changed by a client.
 */
export interface ClientLogLevels {
  get(principal: Principal): Promise<LoggingLevel | undefined>;
  set(principal: Principal, level: LoggingLevel): Promise<void>;
}

/** Over stdio: one client per connection, and one server instance per connection, so the level lives here. */
export function connectionLogLevel(): ClientLogLevels {
  let level: LoggingLevel | undefined;
  return {
    get: async () => level,
    set: async (_principal, given) => void (level = given),
  };
}

/**
 * Over stateless Streamable HTTP: every POST gets a fresh server and no session ties them together, so the
 * level is kept per principal in the shared store (any replica answers the next call), for
 * CLIENT_LOG_LEVEL_TTL_MS. Two clients acting as one principal share it. A store outage sends no messages
 * rather than failing the call.
 */
export function principalLogLevels(store: KeyValueStore): ClientLogLevels {
  const keyOf = (p: Principal): string => JSON.stringify([p.via, p.subject]);
  return {
    get: (principal) => store.get<LoggingLevel>(NAMESPACE, keyOf(principal)).catch(() => undefined),
    set: (principal, level) => store.set(NAMESPACE, keyOf(principal), level, CLIENT_LOG_LEVEL_TTL_MS),
  };
}

// Whether a level reaches a client's threshold: decided where the call's messages are sent (the call's order).
export { reaches } from '../../core/kernel/call-messages.js';
