/**
 * TOON exactly as @toon-format/toon 2.3.1 `encode(value, { indent: 2 })` writes it, for plain JSON values
 * (what JSON.parse and the jq projection produce), several times faster. The library's encoder copies the
 * value first and then hands every line up through a chain of generators, one per level of nesting: on a
 * large response that was most of the time of a call (docs/benchmarks.md). This appends the same lines to
 * a string, handed on as a piece whenever it reaches PIECE_CHARS (an array of lines cost an intermediate
 * string per line, joined again; toonPieces says why pieces). The library stays the reference: anything that
 * is not plain JSON (a Date, a Map, a class instance, a toJSON method) is left to it, and a test holds the two
 * to the same bytes on real payloads and on generated values full of edge cases
 * (test/plugins/toon/fast-encode.test.ts).
 */

import { PIECE_CHARS } from '../../core/result/json-pieces.js';
import { flattened } from '../../core/text/flattened.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Thrown when a value is not plain JSON: the caller falls back to the library. */
export class NotPlainJson extends Error {}

const INDENT = 2;
const NUMERIC_LIKE = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const LEADING_ZERO = /^0\d+$/;
const UNQUOTED_KEY = /^[A-Z_][\w.]*$/i;
/** Longer strings (descriptions, comments) rarely repeat: a slot would hold them for nothing. */
const CACHED_STRING_LENGTH = 256;
const STRING_SLOTS = 1024;
/**
 * Strings written before the table is made: the two tables are 16 KB, which a small page (a 2 KB Jira page
 * writes about 40 strings) would allocate and fill with holes on every call for almost no hits, and that was
 * the largest allocation of such a call.
 */
const STRINGS_BEFORE_TABLE = 128;

/** The TOON text of a plain JSON value; throws NotPlainJson for anything else. */
export function encodeToon(value: unknown): string {
  return toonPieces(value).join('');
}

/**
 * The TOON text of a plain JSON value as consecutive pieces of about PIECE_CHARS characters (the last may be
 * shorter; a value that fits in one is one piece); throws NotPlainJson for anything else. A whole text past
 * LARGE_STRING_BYTES (core/text/large-string.ts, counted in bytes: two a character for UTF-16) is a string of its
 * own in V8's large-object space, which maps fresh memory for it on every call: for the 300 KB rendering of a
 * workflow-runs page that cost more than writing it (the mapping's page faults).
 * Pieces, flattened as they are handed on, live in the young generation, whose memory is reused, and the
 * truncate stage saves and cuts them as they are.
 */
export function toonPieces(value: unknown): string[] {
  const root = checked(value);
  if (isPrimitive(root)) return [primitive(root)];
  const out = new Encoder();
  if (Array.isArray(root)) out.array(undefined, root, 0);
  else out.object(root, 0);
  return out.finish();
}

class Encoder {
  /** The output since the last piece, every line after a line break (the first one is cut off at the end). */
  private out = '';
  private readonly pieces: string[] = [];

  /**
   * Strings as written, for this call, in a direct-mapped table: a page repeats most of its strings (a
   * repository's URLs in every workflow run, an assignee's avatar URLs in every issue), and finding one here
   * costs less than scanning it again for the characters that make it quoted or escaped. A slot is chosen
   * from the length and a few characters, not a hash of the whole string (a Map hashes and grows, which
   * made a page of all-distinct strings 15-25% slower); a miss just overwrites the slot.
   */
  private table: { seen: string[]; written: string[] } | undefined;
  private untabled = 0;

  /** A primitive as written, through the table for a string that may repeat (once the value has proved big enough). */
  private asWritten(value: Primitive): string {
    if (typeof value !== 'string') return String(value);
    const n = value.length;
    if (n < 2 || n > CACHED_STRING_LENGTH) return primitive(value);
    if (this.table === undefined) {
      if (++this.untabled <= STRINGS_BEFORE_TABLE) return primitive(value);
      this.table = { seen: new Array<string>(STRING_SLOTS), written: new Array<string>(STRING_SLOTS) };
    }
    const { seen, written } = this.table;
    const slot =
      (n * 31 + value.charCodeAt(n - 1) * 7 + value.charCodeAt(n - 2) * 131 + value.charCodeAt(n >> 1) * 17 + value.charCodeAt(n >> 2)) & (STRING_SLOTS - 1);
    if (seen[slot] === value) return written[slot]!;
    const text = primitive(value);
    seen[slot] = value;
    written[slot] = text;
    return text;
  }

  /** The pieces, without the first line's line break. */
  finish(): string[] {
    if (this.out !== '' || this.pieces.length === 0) this.pieces.push(this.out);
    this.pieces[0] = this.pieces[0]!.slice(1);
    return this.pieces;
  }

  /** Appends; a long enough output is handed on as a piece (checked per line: a line is never split). */
  private append(text: string): void {
    this.out += text;
    if (this.out.length >= PIECE_CHARS) {
      this.pieces.push(flattened(this.out));
      this.out = '';
    }
  }

  private line(depth: number, content: string): void {
    this.append(lineBreak(depth) + content);
  }

  private header(length: number, key: string | undefined, fields?: string[]): string {
    let header = key === undefined ? `[${length}]` : `${encodedKey(key)}[${length}]`;
    if (fields !== undefined) header += `{${fields.map((f) => encodedKey(f)).join(',')}}`;
    return `${header}:`;
  }

  private inline(values: Json[], key?: string): string {
    const header = this.header(values.length, key);
    return values.length === 0 ? header : `${header} ${values.map((v) => this.asWritten(checked(v) as Primitive)).join(',')}`;
  }

  object(value: { [key: string]: Json }, depth: number, skipFirst = false): void {
    const keys = Object.keys(value);
    for (let i = skipFirst ? 1 : 0; i < keys.length; i++) {
      const key = keys[i]!;
      const v = checked(value[key]);
      if (isPrimitive(v)) this.append(field(depth, key) + this.asWritten(v));
      else if (Array.isArray(v)) this.array(key, v, depth);
      else {
        this.line(depth, `${encodedKey(key)}:`);
        this.object(v, depth + 1);
      }
    }
  }

  array(key: string | undefined, value: Json[], depth: number): void {
    if (value.length === 0) {
      this.line(depth, key === undefined ? '[]' : `${encodedKey(key)}: []`);
    } else if (value.every(isPrimitiveItem)) {
      this.line(depth, this.inline(value, key));
    } else if (value.every((item) => Array.isArray(item) && item.every(isPrimitiveItem))) {
      this.line(depth, this.header(value.length, key));
      for (const item of value) this.line(depth + 1, `- ${this.inline(item as Json[])}`);
    } else {
      const fields = value.every(isObjectItem) ? tabularFields(value as Array<{ [key: string]: Json }>) : undefined;
      if (fields !== undefined) {
        this.line(depth, this.header(value.length, key, fields));
        this.rows(value as Array<{ [key: string]: Json }>, fields, depth + 1);
      } else {
        this.line(depth, this.header(value.length, key));
        for (const item of value) this.listItem(checked(item), depth + 1);
      }
    }
  }

  private rows(rows: Array<{ [key: string]: Json }>, fields: string[], depth: number): void {
    for (const row of rows) this.line(depth, fields.map((f) => this.asWritten(checked(row[f]) as Primitive)).join(','));
  }

  private listItem(value: Json, depth: number): void {
    if (isPrimitive(value)) this.line(depth, `- ${this.asWritten(value)}`);
    else if (Array.isArray(value)) {
      if (value.every(isPrimitiveItem)) this.line(depth, `- ${this.inline(value)}`);
      else {
        this.line(depth, `- ${this.header(value.length, undefined)}`);
        for (const item of value) this.listItem(checked(item), depth + 1);
      }
    } else this.objectItem(value, depth);
  }

  /** An object as a list item: its first field on the "- " line, the others indented under it. */
  private objectItem(value: { [key: string]: Json }, depth: number): void {
    const keys = Object.keys(value);
    if (keys.length === 0) {
      this.line(depth, '-');
      return;
    }
    const first = keys[0]!;
    const v = checked(value[first]);
    if (Array.isArray(v) && v.every(isObjectItem)) {
      const fields = tabularFields(v as Array<{ [key: string]: Json }>);
      if (fields !== undefined) {
        this.line(depth, `- ${this.header(v.length, first, fields)}`);
        this.rows(v as Array<{ [key: string]: Json }>, fields, depth + 2);
        this.object(value, depth + 1, true);
        return;
      }
    }
    const key = encodedKey(first);
    if (isPrimitive(v)) this.line(depth, `- ${key}: ${this.asWritten(v)}`);
    else if (Array.isArray(v)) {
      if (v.length === 0) this.line(depth, `- ${key}: []`);
      else if (v.every(isPrimitiveItem)) this.line(depth, `- ${key}${this.inline(v)}`);
      else {
        this.line(depth, `- ${key}${this.header(v.length, undefined)}`);
        for (const item of v) this.listItem(checked(item), depth + 2);
      }
    } else {
      this.line(depth, `- ${key}:`);
      this.object(v, depth + 2);
    }
    this.object(value, depth + 1, true);
  }
}

/*
 * What a key and an indentation are written as depends on nothing else, and a server renders the same
 * vendors' field names call after call: these are kept across calls (a small call would otherwise pay for
 * building them every time), and emptied when they grow past KEPT_KEYS (keys can be data, such as ids).
 * Only short keys at shallow depths are kept, so what a hostile body can leave behind stays small (at most
 * KEPT_KEYS keys of KEPT_KEY_LENGTH characters, each with a line start for KEPT_DEPTHS depths): field names
 * are short and pages are shallow; a longer key or a deeper line is built on the spot, the same bytes.
 */
const KEPT_KEYS = 4096;
const KEPT_KEY_LENGTH = 64;
const KEPT_DEPTHS = 16;
const lineBreaks: string[] = [];
const keys = new Map<string, string>();
/** "key: " after its line break and indentation, per key and depth: most lines of a page start with one. */
const fields = new Map<string, string[]>();

/** A line break and the indentation of a depth. */
function lineBreak(depth: number): string {
  return (lineBreaks[depth] ??= `\n${' '.repeat(INDENT * depth)}`);
}

function encodedKey(key: string): string {
  if (key.length > KEPT_KEY_LENGTH) return writtenKey(key);
  let encoded = keys.get(key);
  if (encoded === undefined) {
    if (keys.size === KEPT_KEYS) keys.clear();
    keys.set(key, (encoded = writtenKey(key)));
  }
  return encoded;
}

function writtenKey(key: string): string {
  return UNQUOTED_KEY.test(key) ? key : `"${escape(key)}"`;
}

function field(depth: number, key: string): string {
  if (depth >= KEPT_DEPTHS || key.length > KEPT_KEY_LENGTH) return `${lineBreak(depth)}${encodedKey(key)}: `;
  let byDepth = fields.get(key);
  if (byDepth === undefined) {
    if (fields.size === KEPT_KEYS) fields.clear();
    fields.set(key, (byDepth = []));
  }
  // One flat string, so appending it adds one piece to the output rather than three.
  return (byDepth[depth] ??= [lineBreak(depth), encodedKey(key), ': '].join(''));
}

type Primitive = null | boolean | number | string;

function isPrimitive(value: Json): value is Primitive {
  return value === null || typeof value !== 'object';
}

const isPrimitiveItem = (item: Json): boolean => isPrimitive(checked(item));
const isObjectItem = (item: Json): boolean => !isPrimitive(checked(item)) && !Array.isArray(item);

/** The field names when every row has the first row's keys, each holding a primitive: a table. */
function tabularFields(rows: Array<{ [key: string]: Json }>): string[] | undefined {
  const fields = Object.keys(rows[0] ?? {});
  if (fields.length === 0) return undefined;
  for (const row of rows) {
    if (Object.keys(row).length !== fields.length) return undefined;
    for (const field of fields) if (!Object.hasOwn(row, field) || !isPrimitive(checked(row[field]))) return undefined;
  }
  return fields;
}

/**
 * A value as the library's normalisation would leave it, when that is the value itself: -0 and non-finite
 * numbers are the only primitives it changes (to 0 and null); an undefined field it would render as null.
 */
function checked(value: unknown): Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'undefined':
      return null;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value as Json[];
      const proto = Object.getPrototypeOf(value) as unknown;
      if ((proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function')
        return value as { [key: string]: Json };
      throw new NotPlainJson();
    }
    default:
      throw new NotPlainJson();
  }
}

function primitive(value: Primitive): string {
  if (typeof value === 'string') return needsQuotes(value) ? `"${escape(value)}"` : value;
  return String(value);
}

/** The library's isSafeUnquoted, negated, in one pass over the characters. */
function needsQuotes(s: string): boolean {
  const n = s.length;
  if (n === 0) return true;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(n - 1);
  // Printable ASCII is never trimmed; anything else at either end is decided by trim() itself.
  if ((first <= 32 || first >= 127 || last <= 32 || last >= 127) && s !== s.trim()) return true;
  if (s === 'true' || s === 'false' || s === 'null') return true;
  if (first >= 48 && first <= 57 && (NUMERIC_LIKE.test(s) || LEADING_ZERO.test(s))) return true;
  if (first === 45) return true; // "-": a list marker, or a negative number
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    // : " \ [ ] { } , and control characters
    if (c < 32 || c === 58 || c === 34 || c === 92 || c === 91 || c === 93 || c === 123 || c === 125 || c === 44) return true;
  }
  return false;
}

/**
 * Characters JSON.stringify escapes otherwise than the library: \b and \f (the library writes \u0008 and
 * \u000c), and surrogates (JSON.stringify escapes a lone one; the library keeps it).
 */
const JSON_ESCAPES_DIFFER = /[\b\f\ud800-\udfff]/;

/** What the library escapes: a quote, a backslash, a control character. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** The library's escapeString: backslash, quote, \n, \r, \t, and other control characters as \u00XX. */
function escape(s: string): string {
  // A regular expression finds out faster than a loop over the characters that there is nothing to escape.
  if (!NEEDS_ESCAPE.test(s)) return s;
  // Text with quotes and line breaks (descriptions, comments): the native JSON escaper writes the same bytes,
  // without a string built piece by piece.
  if (!JSON_ESCAPES_DIFFER.test(s)) return JSON.stringify(s).slice(1, -1);
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 32 && c !== 34 && c !== 92) continue;
    out += s.slice(from, i);
    from = i + 1;
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return from === 0 ? s : out + s.slice(from);
}
