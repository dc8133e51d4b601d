/** Replaces every configured secret value in a piece of text. */
export type Scrub = (text: string) => string;

/** Secrets shorter than this are not scrubbed: replacing two or three characters would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

/**
 * The one scrubber of result text, structured values and artifacts: a secret never reaches a caller, whatever
 * an upstream echoed back. Longest secrets first, so a secret that contains another is replaced whole.
 */
export function secretScrubber(secretValues: readonly string[]): Scrub {
  const secrets = [...new Set(secretValues.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
    return out;
  };
}

/**
 * A JSON value with every string (keys included) scrubbed. The value is walked rather than its serialization
 * edited, so a secret with characters JSON escapes is found too and the structure can never be broken.
 * Only what changed is copied (the path from the root to each scrubbed string): a value without secrets,
 * the common case, comes back as is without a shadow copy of it being built on the way (on a 16 MiB value,
 * that copy was tens of MiB of garbage at the peak of a call).
 */
export function scrubJsonValue<T>(value: T, scrub: Scrub): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const scrubbed = scrubJsonValue(item, scrub);
      if (out === undefined && scrubbed !== item) out = value.slice(0, i);
      out?.push(scrubbed);
    }
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const keys = Object.keys(source);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const key = scrub(k);
      const scrubbed = scrubJsonValue(source[k], scrub);
      if (out === undefined && (key !== k || scrubbed !== source[k])) {
        out = {};
        for (const earlier of keys.slice(0, i)) out[earlier] = source[earlier];
      }
      if (out !== undefined) out[key] = scrubbed;
    }
    return (out ?? value) as T;
  }
  return value;
}
