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
 * Returns the same value when nothing changed, so the common case allocates nothing.
 */
export function scrubJsonValue<T>(value: T, scrub: Scrub): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const s = scrubJsonValue(v, scrub);
      changed ||= s !== v;
      return s;
    });
    return (changed ? out : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = scrub(k);
      const s = scrubJsonValue(v, scrub);
      changed ||= key !== k || s !== v;
      out[key] = s;
    }
    return (changed ? out : value) as T;
  }
  return value;
}
