import { Client, type ClientOptions } from '@modelcontextprotocol/client';

/** How an SDK client chooses the protocol revision: the SDK's `versionNegotiation` option. */
export type VersionNegotiation = NonNullable<ClientOptions['versionNegotiation']>;

/**
 * The kit's default: probe with `server/discover` and speak 2026-07-28 with a server that does (this one
 * does), falling back to `initialize` otherwise. `{ mode: 'legacy' }` is a 2025-era client (`initialize` with
 * 2025-11-25); `{ mode: { pin: '2026-07-28' } }` refuses anything older.
 */
export const NEGOTIATE_LATEST: VersionNegotiation = { mode: 'auto' };

/** The official SDK client (v2) as the kit's helpers connect it. */
export function kitClient(name: string, versionNegotiation: VersionNegotiation = NEGOTIATE_LATEST): Client {
  return new Client({ name, version: '1.0.0' }, { versionNegotiation });
}
