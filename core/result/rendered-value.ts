import type { CallContext } from '../pipeline/call-context.js';

/**
 * The value a tool's text is rendered from: the projected body wrapped with the metadata the tool reports
 * beside it (`nextPage`, `cache`), bare when there is none (the Atlassian passthroughs). The metadata comes
 * first in the text so that a page cut at the model's 40,000-character limit still says where to go next.
 */
export function renderedValue(ctx: CallContext): unknown {
  const meta = ctx.output?.meta;
  return meta === undefined ? ctx.value : { ...meta, data: ctx.value };
}
