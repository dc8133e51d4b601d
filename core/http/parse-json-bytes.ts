import { LARGE_STRING_BYTES } from '../text/large-string.js';
import { bracketDepth } from '../schema/argument-depth.js';
import { asciiEscapedJson } from './ascii-escaped-json.js';
import { ObjectArrayBatches } from './json-array-batches.js';
import { setDataMember } from '../result/data-member.js';

/**
 * Whether a body whose text takes `textBytes` (decodedTextBytes) is parsed from its bytes a member at a time
 * (parseJsonBytes) rather than decoded whole first: when its whole text would be a large string
 * (core/text/large-string.ts), which is 128 KiB of ASCII or 64 KiB of anything else. Decoding such a text is
 * the dear part of its parse (the pages' faults), and a 16 MiB page with characters outside Latin-1 is 32 MiB
 * of UTF-16 held to the next full collection. What it gains against decode + JSON.parse is the bench's mechanism
 * row (docs/benchmarks.md). Below the size, decode + JSON.parse stays: faster there.
 */
export function parsesInPieces(textBytes: number): boolean {
  return textBytes > LARGE_STRING_BYTES;
}

/** The smallest ASCII body that parsesInPieces (for tests): one of any other text needs half as many bytes. */
export const PARSE_IN_PIECES_BYTES = LARGE_STRING_BYTES + 1;

/**
 * Levels below an array that the depth of its batches is counted to: past the deepest any caller allows
 * (MAX_BODY_DEPTH, 512), and few enough for the walk's own stack.
 */
const DEPTH_COUNTED = 1024;

/** Members larger than this (in bytes) are themselves parsed a member at a time; smaller ones by JSON.parse. */
const MEMBER_BYTES = 32 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Anything this parser is not sure of: the caller parses the whole text instead, with its exact errors. */
class NotHandled extends Error {}

/**
 * The value of a JSON object or array body, exactly as `JSON.parse(bytes.toString('utf8', from))` gives it,
 * made from small decoded slices: the structure is scanned in the bytes (UTF-8 never puts a byte below 0x80
 * inside a multi-byte character, so brackets, quotes and commas are found byte by byte), each member is
 * decoded and parsed on its own, and big members are taken apart the same way (a big array of objects a batch
 * of elements at a time, json-array-batches.ts). Undefined when the body is
 * not an object or array, or anything looks wrong: the caller then decodes and parses the whole text, so a
 * bad body fails exactly as it always did. A body whose text is big only because it is UTF-16 (characters past
 * Latin-1 in under 128 KiB) is parsed whole instead, its characters past ASCII written as escapes
 * (ascii-escaped-json.ts): a Jira page of 100 KB in 0.36-0.38 ms against 0.47-0.52 taken apart.
 */
export function parseJsonBytes(bytes: Buffer, from = 0): ParsedBytes | undefined {
  try {
    const start = skipSpace(bytes, from);
    if (bytes[start] !== OPEN_OBJECT && bytes[start] !== OPEN_ARRAY) return undefined;
    const escaped = asciiEscapedJson(bytes, start);
    if (escaped !== undefined) {
      // Small enough to be parsed whole once its characters past ASCII are escapes; no brackets were counted.
      const value: unknown = JSON.parse(escaped);
      return { value, nesting: bracketDepth(value, DEPTH_COUNTED) - 1 };
    }
    // Only whitespace may follow the value, so it must end at the last other byte.
    let end = bytes.length;
    while (end > start && isSpace(bytes[end - 1]!)) end--;
    const nesting = { deepest: 0 };
    const [value, valueEnd] = parseValue(bytes, start, 0, nesting);
    return valueEnd === end ? { value, nesting: nesting.deepest - 1 } : fail();
  } catch {
    // NotHandled, a SyntaxError of a member, a RangeError of a very deep nesting: the whole text decides.
    return undefined;
  }
}

export interface ParsedBytes {
  value: unknown;
  /**
   * At most how deep a container sits in the value (the root at level 0, as nestsDeeperThan counts), from the
   * brackets the scan counted on its way: an upper bound, as the earlier values of a repeated key count too.
   * A value whose bound is within a depth limit need not be walked to know that it is.
   */
  nesting: number;
}

/** The deepest bracket the scan has counted (the root's is 1). */
interface Nesting {
  deepest: number;
}

/**
 * The value starting at `at`, and just past its end. A container is first looked at for MEMBER_BYTES at most:
 * one that closes within them is parsed whole by JSON.parse; a bigger one member by member, each member found
 * once (scanning a big container to its end before taking it apart went over every byte twice).
 */
function parseValue(bytes: Buffer, at: number, level: number, nesting: Nesting): [unknown, number] {
  const open = bytes[at];
  const end = open === OPEN_OBJECT || open === OPEN_ARRAY ? containerEnd(bytes, at, at + MEMBER_BYTES, level, nesting) : valueEnd(bytes, at);
  return end === -1 ? parseContainer(bytes, at, level + 1, nesting) : [JSON.parse(bytes.toString('utf8', at, end)), end];
}

/** A container too big to parse whole, member by member; `level` is the bracket depth of its members. */
function parseContainer(bytes: Buffer, start: number, level: number, nesting: Nesting): [unknown, number] {
  if (level > nesting.deepest) nesting.deepest = level;
  const array = bytes[start] === OPEN_ARRAY;
  const close = array ? CLOSE_ARRAY : CLOSE_OBJECT;
  const out: unknown[] | Record<string, unknown> = array ? [] : {};
  let at = skipSpace(bytes, start + 1);
  if (bytes[at] === close) return [out, at + 1];
  const batches = array && bytes[at] === OPEN_OBJECT ? new ObjectArrayBatches(bytes) : undefined;
  for (;;) {
    const batch = batches?.take(at);
    if (batch !== undefined) {
      for (const element of batch.elements) (out as unknown[]).push(element);
      // Their brackets were not counted: walked instead, to no more than DEPTH_COUNTED levels below the array.
      const deepest = level + bracketDepth(batch.elements, DEPTH_COUNTED) - 1;
      if (deepest > nesting.deepest) nesting.deepest = deepest;
      at = batch.end;
    } else {
      let key: string | undefined;
      if (!array) {
        if (bytes[at] !== QUOTE) fail();
        const keyEnd = stringEnd(bytes, at);
        key = JSON.parse(bytes.toString('utf8', at, keyEnd)) as string;
        at = skipSpace(bytes, keyEnd);
        if (bytes[at] !== COLON) fail();
        at = skipSpace(bytes, at + 1);
      }
      const [member, memberEnd] = parseValue(bytes, at, level, nesting);
      // A "__proto__" key stays a key, as JSON.parse makes it; a repeated key keeps its first place and takes the
      // last value, as there.
      if (array) (out as unknown[]).push(member);
      else setDataMember(out as Record<string, unknown>, key!, member);
      batches?.read(memberEnd);
      at = memberEnd;
    }
    at = skipSpace(bytes, at);
    if (bytes[at] === COMMA) at = skipSpace(bytes, at + 1);
    else if (bytes[at] === close) return [out, at + 1];
    else fail();
  }
}

/**
 * Just past the container starting at `at` (its brackets counted, strings skipped), or -1 when it does not
 * close before `limit`. Only brackets are counted: JSON.parse of the container checks the rest. The deepest
 * bracket of one that closes is noted in `nesting`, counted from `level` (the brackets around it).
 */
function containerEnd(bytes: Buffer, at: number, limit: number, level: number, nesting: Nesting): number {
  const stop = Math.min(bytes.length, limit);
  let depth = 0;
  let deepest = 0;
  for (let i = at; i < stop; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) i = stringEnd(bytes, i) - 1;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > deepest) deepest = depth;
    } else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --depth === 0) {
      if (level + deepest > nesting.deepest) nesting.deepest = level + deepest;
      return i + 1;
    }
  }
  return -1;
}

/** Where the string, number or bare word starting at `at` ends. */
function valueEnd(bytes: Buffer, at: number): number {
  if (bytes[at] === QUOTE) return stringEnd(bytes, at);
  let i = at;
  while (i < bytes.length && !isSpace(bytes[i]!) && bytes[i] !== COMMA && bytes[i] !== CLOSE_OBJECT && bytes[i] !== CLOSE_ARRAY) i++;
  return i > at ? i : fail();
}

/** Bytes of a string looked at one by one before its closing quote is searched for natively (most keys are short). */
const SHORT_STRING = 24;

/** Just past the closing quote of the string whose opening quote is at `at`. */
function stringEnd(bytes: Buffer, at: number): number {
  const short = Math.min(bytes.length, at + 1 + SHORT_STRING);
  let i = at + 1;
  for (; i < short; i++) {
    const b = bytes[i]!;
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return i + 1;
  }
  // A long string: each quote found by Buffer.indexOf closes it unless an odd run of backslashes escapes it.
  for (;;) {
    const quote = bytes.indexOf(QUOTE, i);
    if (quote === -1) return fail();
    let backslashes = 0;
    while (quote - backslashes - 1 > at && bytes[quote - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function skipSpace(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

function fail(): never {
  throw new NotHandled();
}
