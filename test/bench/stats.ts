/**
 * The statistics every benchmark figure goes through: medians and tail percentiles of samples, and the spread
 * of repeated runs, so a noisy shared machine shows as a wide spread rather than as a wrong number.
 */

/** The value at quantile `q` (0..1) of the samples, nearest-rank: p99 of 20 samples is their maximum. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

export interface Summary {
  median: number;
  p99: number;
  /** Interquartile range: where the middle half of the samples lie. */
  p25: number;
  p75: number;
  n: number;
}

export function summarize(samples: readonly number[]): Summary {
  return { median: median(samples), p99: quantile(samples, 0.99), p25: quantile(samples, 0.25), p75: quantile(samples, 0.75), n: samples.length };
}

/** Milliseconds since an earlier `performance.now()`. */
export const since = (started: number): number => performance.now() - started;

/** A number for a table: 3 significant digits, no exponent. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 3));
}

/** `a / b` as a ratio cell (`0.42x`). */
export const ratio = (a: number, b: number): string => `${fmt(a / b)}x`;

/** A spread cell: the interquartile range. */
export const spread = (s: Summary): string => `${fmt(s.p25)}-${fmt(s.p75)}`;

export const MiB = 1024 * 1024;
export const bytesCell = (bytes: number): string => (bytes >= MiB ? `${fmt(bytes / MiB)} MiB` : bytes >= 1024 ? `${fmt(bytes / 1024)} KiB` : `${bytes} B`);
