import { randomBytes } from 'node:crypto';

/**
 * Fences around untrusted text (docs/untrusted-content.md#fences). The boundary is random per call and said in
 * the result, so text inside cannot end the fence: it would have to guess the boundary before the call made it.
 * A boundary that happens to occur in the text it fences is drawn again, so the closing mark is only ever ours.
 */
export interface Fence {
  readonly open: string;
  readonly close: string;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fence whose marks occur in none of `texts`. Eight characters of 31: about 40 bits a writer would have to guess. */
export function newFence(texts: readonly string[]): Fence {
  for (;;) {
    const bytes = randomBytes(8);
    const boundary = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
    const fence = { open: `⟦${boundary}⟧`, close: `⟦/${boundary}⟧` };
    if (!texts.some((t) => t.includes(boundary))) return fence;
  }
}

/** The text inside the fence. */
export const fenced = (text: string, fence: Fence): string => `${fence.open}${text}${fence.close}`;

/** How the result states its fence, in its header (`provenance.fence`) and in `_meta`. */
export const fenceStatement = (fence: Fence): string => `${fence.open}…${fence.close}`;
