import { encode } from '@toon-format/toon';
import { parseJsonBytes } from '../../core/http/parse-json-bytes.js';
import { toonPieces } from '../../plugins/toon/fast-encode.js';

/**
 * A purely algorithmic speed-up the product keeps, and the plain way it replaces. Issue 40's rule: a mechanism
 * stays only where the run of record shows it wins at least 10% on a row (a page size), measured in process.
 */
export interface Mechanism {
  /** What it is, in a few words. */
  name: string;
  /** The product's function and where it lives. */
  fast: string;
  /** The plain way, as code. */
  plain: string;
  /** What both ways are handed, made from a Jira search page's bytes outside the timing. */
  input(page: Buffer): unknown;
  fastWay(input: unknown): unknown;
  plainWay(input: unknown): unknown;
}

/** One entry, typed on its input (the table holds them as `unknown`). */
function mechanism<T>(m: {
  name: string;
  fast: string;
  plain: string;
  input(page: Buffer): T;
  fastWay(input: T): unknown;
  plainWay(input: T): unknown;
}): Mechanism {
  return m as Mechanism;
}

const parsed = (page: Buffer): unknown => JSON.parse(page.toString('utf8'));

/** The mechanisms measured, one entry each: add or drop one here. */
export const MECHANISMS: Mechanism[] = [
  mechanism({
    name: 'fast TOON encoder',
    fast: 'toonPieces (plugins/toon/fast-encode.ts)',
    plain: 'encode(value, { indent: 2 }) of @toon-format/toon',
    input: parsed,
    fastWay: toonPieces,
    plainWay: (value) => encode(value, { indent: 2 }),
  }),
  mechanism({
    name: 'byte-level JSON reading',
    fast: 'parseJsonBytes (core/http/parse-json-bytes.ts, for bodies parsesInPieces picks)',
    plain: "JSON.parse(bytes.toString('utf8'))",
    input: (page) => page,
    fastWay: (page) => parseJsonBytes(page)?.value,
    plainWay: parsed,
  }),
];
