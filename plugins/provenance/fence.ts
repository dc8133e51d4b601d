import { nodeCrypto } from '../../core/node-crypto.js';

/**
 * Fences around untrusted text (docs/untrusted-content.md#fences): `<482913775>text</482913775>`. The boundary is
 * random per call and stated in the result, and it is drawn again until no string of the result holds it, so the
 * closing mark in the text the model reads is only ever ours: text inside cannot end the fence.
 *
 * Why these marks: o200k reads three digits as one token and `<`, `</`, `>` as one each, so a mark of nine digits
 * is 5 tokens (10 a fenced string) where `⟦k7mq2xpa⟧` was 11-12 (about 23). `<`, `/`, `>` and digits are never
 * escaped by JSON or TOON, and never the tail of an escape (`\n`, `\u27e6`), so the mark can appear in the rendered
 * text only where a string of the value holds it: checking the value's strings is checking the text.
 */
export interface Fence {
  readonly open: string;
  readonly close: string;
}

/** Nine digits: about 30 bits a writer would have to guess before the call, in 3 o200k tokens. */
const DIGITS = 9;
/** Draws of one length before the boundary grows (a text full of numbers could hold many of them). */
const DRAWS_PER_LENGTH = 8;

const randomDigits = (length: number): string => Array.from({ length }, () => String(nodeCrypto().randomInt(10))).join('');

/**
 * A fence whose boundary `holds` says no string of the result contains. Terminates on any result: after a few
 * draws the boundary grows by three digits, and a boundary longer than every string is held by none.
 */
export function newFence(holds: (boundary: string) => boolean): Fence {
  for (let length = DIGITS; ; length += 3) {
    for (let draw = 0; draw < DRAWS_PER_LENGTH; draw++) {
      const boundary = randomDigits(length);
      if (!holds(boundary)) return { open: `<${boundary}>`, close: `</${boundary}>` };
    }
  }
}

/** The text inside the fence. */
export const fenced = (text: string, fence: Fence): string => `${fence.open}${text}${fence.close}`;

/** How the result states its fence, in its header (`provenance.fence`) and in `_meta`. */
export const fenceStatement = (fence: Fence): string => `${fence.open}…${fence.close}`;
