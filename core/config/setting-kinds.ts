import type { TSchema } from 'typebox';

/**
 * Markers on a setting's schema. `secret` values are masked by `mcp-devtools config` and scrubbed from every
 * log line; `lenient` settings fall back to their default (with a warning) instead of failing start-up, for
 * settings whose contract says a bad value is logged rather than fatal.
 */
export function secret<T extends TSchema>(schema: T): T {
  return Object.assign(schema, { 'x-secret': true });
}

export function lenient<T extends TSchema>(schema: T): T {
  return Object.assign(schema, { 'x-lenient': true });
}

/**
 * A setting that names this process's own share of something several processes write beside each other (an audit
 * log's chain): under `--workers` each worker runs with `<value>-w<slot>` (`w<slot>` when it is empty).
 */
export function perWorker<T extends TSchema>(schema: T): T {
  return Object.assign(schema, { 'x-per-worker': true });
}

export function isPerWorker(schema: TSchema): boolean {
  return (schema as Record<string, unknown>)['x-per-worker'] === true;
}

export function isSecret(schema: TSchema): boolean {
  return (schema as Record<string, unknown>)['x-secret'] === true;
}

export function isLenient(schema: TSchema): boolean {
  return (schema as Record<string, unknown>)['x-lenient'] === true;
}

/** Clamps a number into [min, max]; returns whether it had to. */
export function clamp(value: number, min: number, max: number): { value: number; clamped: boolean } {
  const v = Math.min(max, Math.max(min, value));
  return { value: v, clamped: v !== value };
}
