import { FROM_UPSTREAM } from '../plugin/tool-spec.js';

/**
 * A further request's declared body held against the body sent. The declaration is read as JSON.stringify would
 * send it (undefined keys dropped, `toJSON` applied), each FROM_UPSTREAM standing for any string, number,
 * boolean or null; the body sent is parsed, and both are compared value by value, key order aside. A body that is not
 * JSON never matches a declared one.
 */
export function bodyMatches(declared: unknown, sent: string | undefined): boolean {
  if (declared === undefined) return sent === undefined;
  if (sent === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(sent);
  } catch {
    return false;
  }
  return matches(asSent(declared), value);
}

/** Stands for FROM_UPSTREAM once the declaration is JSON: no string a JSON parser gives back is this object. */
const ANY_SCALAR = Object.freeze({});

function asSent(declared: unknown): unknown {
  let marked = false;
  const text = JSON.stringify(declared, (_key, v: unknown) => {
    if (v !== FROM_UPSTREAM) return v;
    marked = true;
    return { [MARK]: true };
  });
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  return marked ? unmark(parsed) : parsed;
}

/** The key of FROM_UPSTREAM's placeholder while the declaration is JSON text (a NUL no API key starts with). */
const MARK = '\u0000from-upstream';

/** The parsed declaration with each FROM_UPSTREAM placeholder back as ANY_SCALAR. */
function unmark(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmark);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).length === 1 && record[MARK] === true) return ANY_SCALAR;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unmark(v)]));
}

function matches(declared: unknown, sent: unknown): boolean {
  if (declared === ANY_SCALAR) return sent === null || typeof sent === 'string' || typeof sent === 'number' || typeof sent === 'boolean';
  if (Array.isArray(declared)) return Array.isArray(sent) && sent.length === declared.length && declared.every((d, i) => matches(d, sent[i]));
  if (declared === null || typeof declared !== 'object') return declared === sent;
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return false;
  const want = Object.keys(declared);
  const got = Object.keys(sent);
  if (want.length !== got.length) return false;
  return want.every(
    (key) => Object.prototype.hasOwnProperty.call(sent, key) && matches((declared as Record<string, unknown>)[key], (sent as Record<string, unknown>)[key]),
  );
}
