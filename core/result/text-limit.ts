/**
 * Text longer than this many UTF-16 units is cut for the model (about 10k tokens). The truncation plugin cuts
 * at it; a tool that shows the tail of a log sizes the tail to fit under it. A result contract, so it lives here.
 */
export const MAX_TEXT_CHARS = 40_000;
