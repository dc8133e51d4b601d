import type { TSchema } from 'typebox';

/**
 * Turns a string from the environment, `.env` or a flag into the type its setting's schema declares.
 * Stricter than TypeBox's Convert on purpose: "1.5" is not an integer, "yes" is not silently false.
 * A value that does not convert is returned unchanged, so validation names the key.
 */
export function coerceSetting(schema: TSchema, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const type = (schema as { type?: unknown }).type;
  const text = raw.trim();
  if (type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : raw;
  if (type === 'number') return text !== '' && Number.isFinite(Number(text)) ? Number(text) : raw;
  if (type === 'boolean') {
    const lowered = text.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
    if (['false', '0', 'no', 'off', ''].includes(lowered)) return false;
    return raw;
  }
  return raw;
}
