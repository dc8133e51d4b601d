/** MCP_STORE_NAMESPACE: no `:`, so one deployment's prefix can never be the start of another's. */
export const STORE_NAMESPACE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

/** How a store is opened, from MCP_STORE_NAMESPACE and MCP_STORE_TIMEOUT_MS. */
export interface StoreOptions {
  /** Prefix of every key, so deployments sharing one Redis or SQLite file never see each other's entries. */
  namespace: string;
  /** Longest wait for connecting and for each operation. */
  timeoutMs: number;
  /** How often expired entries are swept from memory and SQLite (Redis expires them itself). */
  sweepIntervalMs?: number;
}

/** Expired entries are swept this often by default: often enough to bound memory, rarely enough to cost nothing. */
export const SWEEP_INTERVAL_MS = 60_000;

export const DEFAULT_STORE_OPTIONS: StoreOptions = { namespace: 'mcp-devtools', timeoutMs: 5000 };
