import type { CallContext } from '../pipeline/call-context.js';

/**
 * The value a tool's text is rendered from: the projected body, wrapped as `{data, ...meta}` when the tool
 * reports metadata beside it (`nextPage`, `cache`), bare otherwise (the Atlassian passthroughs).
 */
export function renderedValue(ctx: CallContext): unknown {
  const meta = ctx.output?.meta;
  return meta === undefined ? ctx.value : { data: ctx.value, ...meta };
}
