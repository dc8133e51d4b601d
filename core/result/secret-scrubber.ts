import { isJsonNode } from './json-value.js';
import { setDataMember } from './data-member.js';

/**
 * Replaces every configured secret value in a piece of text. `longestForm`, when known, is the length of the
 * longest form it finds: text checked in consecutive windows that overlap by one less than that is checked
 * whole (how a rendering written out in pieces is checked, plugins/truncation/streamed-cut.ts).
 */
export type Scrub = ((text: string) => string) & { readonly longestForm?: number; readonly shortestForm?: number };

/** Secrets shorter than this are not scrubbed: replacing two or three characters would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

const REDACTED = '[REDACTED]';

/** From this length on, a text is searched for each form in turn rather than with the one regular expression. */
const LONG_TEXT = 4096;

/**
 * The forms a secret takes when an upstream carries it back rather than shows it: as is, URL-encoded (either
 * case of hex), JSON-escaped, and base64-encoded alone or as a Basic `secret:` value. (Basic `user:secret`
 * needs the user too: the upstream client hands those forms over itself, see UpstreamBinding.secretForms.)
 */
export function secretForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const forms = [secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), JSON.stringify(secret).slice(1, -1)];
  for (const raw of [secret, `${secret}:`]) forms.push(Buffer.from(raw, 'utf8').toString('base64'));
  return forms;
}

/**
 * The one scrubber of result text, structured values, truncation files and artifacts: a secret never reaches a
 * caller, whatever an upstream echoed back, in any form of secretForms. Every occurrence of every form is
 * found first and overlapping or touching ones are replaced as one, so neither the order of the secrets nor an
 * overlap between two of them (one's tail is another's head) can leave part of one behind.
 */
export function secretScrubber(secretValues: readonly string[], derived: readonly string[] = []): Scrub {
  const forms = [...new Set([...secretValues.flatMap(secretForms), ...derived])].filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (forms.length === 0) return Object.assign((text: string) => text, { longestForm: 0, shortestForm: Infinity });
  // Most strings of a body (keys, ids, states) are shorter than any secret: one comparison lets them through.
  const shortest = Math.min(...forms.map((f) => f.length));
  // One pass of a regular expression of all the forms says whether any is there at all: several times faster
  // than a search per form, and nearly every string (and text) holds none. Only one that does is searched
  // form by form for the spans to replace.
  // Whether any form is there needs only the forms that hold no other: a text with `Basic <base64>` holds the
  // `<base64>` too, so looking for the longer one as well was a search of the whole text for nothing.
  const telling = forms.filter((form) => !forms.some((other) => other !== form && form.includes(other)));
  const anyForm = new RegExp(telling.map(escapeRegExp).join('|'));
  const longestForm = Math.max(...forms.map((f) => f.length));
  // A long text (a rendering, a cut text) is searched form by form instead: indexOf skips ahead by the form's
  // length where the alternation looks at every character (a 100 KB page's rendering: 125 us to 55 us), but on
  // the many short strings of a value one regular expression call beats several searches.
  const anyIn = (text: string): boolean => {
    if (text.length < LONG_TEXT) return anyForm.test(text);
    for (const form of telling) if (text.includes(form)) return true;
    return false;
  };
  const scrub = (text: string): string => {
    if (text.length < shortest || !anyIn(text)) return text;
    let spans: Array<[number, number]> | undefined;
    for (const form of forms) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) (spans ??= []).push([at, at + form.length]);
    }
    return spans === undefined ? text : redactSpans(text, spans);
  };
  return Object.assign(scrub, { longestForm, shortestForm: shortest });
}

/**
 * A scrubber that always calls the one `current` returns, and tells its forms' lengths: what plugins and the
 * core stages hold while the kernel rebuilds the scrubber once plugins have named their derived forms.
 */
export function liveScrub(current: () => Scrub): Scrub {
  return Object.defineProperties((text: string) => current()(text), {
    longestForm: { get: () => current().longestForm },
    shortestForm: { get: () => current().shortestForm },
  });
}

/** `literal` as a regular expression matching exactly it (code unit by code unit, as indexOf compares). */
function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** `text` with each run covered by one or more of `spans` replaced by one REDACTED marker. */
function redactSpans(text: string, spans: Array<[number, number]>): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let kept = 0;
  let [start, end] = spans[0]!;
  for (const [from, to] of spans) {
    if (from <= end) {
      end = Math.max(end, to);
      continue;
    }
    out += text.slice(kept, start) + REDACTED;
    kept = end;
    [start, end] = [from, to];
  }
  return out + text.slice(kept, start) + REDACTED + text.slice(end);
}

/**
 * How many nodes a walk may still visit: a part shared by reference is visited, and counted, each time it
 * appears, as rendering would write it. `exceeded` makes the error thrown when none are left.
 */
export interface WalkBudget {
  left: number;
  exceeded(): Error;
  /**
   * Made the error thrown at a node JSON cannot hold (json-value.ts: a Map, a Promise, a BigInt, a function),
   * when given: the walk of a handler's output notices one at the cost of a prototype check per container.
   */
  notJson?(): Error;
}

/**
 * A JSON value with every string (keys included) scrubbed, visiting at most `walk.left` nodes when given. The value is walked rather than its serialization
 * edited, so a secret with characters JSON escapes is found too and the structure can never be broken.
 * Only what changed is copied (the path from the root to each scrubbed string): a value without secrets,
 * the common case, comes back as is without a shadow copy of it being built on the way (on a 16 MiB value,
 * that copy was tens of MiB of garbage at the peak of a call). A key that scrubbing leaves as `__proto__` is
 * defined, never assigned, so it stays a key.
 */
export function scrubJsonValue<T>(value: T, scrub: Scrub, walk?: WalkBudget): T {
  if (walk !== undefined && --walk.left < 0) throw walk.exceeded();
  if (typeof value === 'string') return scrub(value) as T;
  if (walk?.notJson !== undefined && !isJsonNode(value)) throw walk.notJson();
  if (value === null || typeof value !== 'object') return value;
  return scrubContainer(value, scrub, scrub.shortestForm ?? 0, walk) as T;
}

/**
 * An array or object, scrubbed. A string shorter than every form (most keys, ids and states of a body) is let
 * through without calling the scrubber.
 */
function scrubContainer(value: object, scrub: Scrub, shortest: number, walk: WalkBudget | undefined): object {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const scrubbed = scrubMember(item, scrub, shortest, walk);
      if (out === undefined && scrubbed !== item) out = value.slice(0, i);
      out?.push(scrubbed);
    }
    return out ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const key = k.length < shortest ? k : scrub(k);
    const item = source[k];
    const scrubbed = scrubMember(item, scrub, shortest, walk);
    if (out === undefined && (key !== k || scrubbed !== item)) {
      out = {};
      for (const earlier of keys.slice(0, i)) setDataMember(out, earlier, source[earlier]);
    }
    if (out !== undefined) setDataMember(out, key, scrubbed);
  }
  return out ?? source;
}

/** An item or a field's value, counted against the walk and scrubbed: a container walked, a long enough string searched. */
function scrubMember(item: unknown, scrub: Scrub, shortest: number, walk: WalkBudget | undefined): unknown {
  if (walk !== undefined && --walk.left < 0) throw walk.exceeded();
  if (walk?.notJson !== undefined && !isJsonNode(item)) throw walk.notJson();
  if (item !== null && typeof item === 'object') return scrubContainer(item, scrub, shortest, walk);
  return typeof item === 'string' && item.length >= shortest ? scrub(item) : item;
}
