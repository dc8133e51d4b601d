import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** What a model reads, in bytes (UTF-8) and tokens. */
export interface Reading {
  bytes: number;
  tokens: number;
}

/**
 * Counts texts as a model reads them, each on its own (each is its own message): bytes of UTF-8, and tokens of
 * o200k_base (GPT-4o's tokenizer, through gpt-tokenizer). Anthropic publishes no tokenizer for its current
 * models, so token counts are one real tokenizer's, and bytes are the figure that does not depend on one.
 */
export function reading(texts: readonly string[]): Reading {
  return texts.reduce<Reading>((sum, text) => ({ bytes: sum.bytes + Buffer.byteLength(text, 'utf8'), tokens: sum.tokens + countTokens(text) }), { bytes: 0, tokens: 0 });
}
