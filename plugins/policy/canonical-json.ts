import { nodeCrypto } from '../../core/node-crypto.js';
import { setDataMember } from '../../core/result/data-member.js';

/**
 * JSON with object keys sorted at every level, so equal values always serialize (and hash) the same:
 * the policy version, the argument hash an approval is bound to and the audit chain all depend on it.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    // A data member, never the prototype: a "__proto__" argument is data the request sends, and must be bound and shown.
    if (v !== undefined) setDataMember(out, key, sortKeys(v));
  }
  return out;
}

export function sha256Hex(text: string): string {
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex');
}
