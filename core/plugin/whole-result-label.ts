import type { DefinedTool } from './define-tool.js';
import { wholeResult } from './provenance.js';
import type { AnyToolContext } from './tool-context.js';

/** What a whole-labelled result is called, where it lives, and why nothing finer is known of it. */
export interface WholeLabel {
  item: string;
  resource: string;
  why: string;
}

/**
 * A read tool whose result carries people's (or a build's) text and says nothing of who wrote it: declared
 * labelled, its result labelled untrusted and private as a whole (docs/untrusted-content.md). A tool whose
 * result is final text (a log) has that text fenced whole, or withheld under lockdown.
 */
export function labelledWhole<D>(tool: DefinedTool<D>, label: (ctx: AnyToolContext) => WholeLabel): DefinedTool<D> {
  return {
    spec: { ...tool.spec, provenance: { labels: true } },
    handler: async (ctx, deps) => {
      const output = await tool.handler(ctx, deps);
      const { item, resource, why } = label(ctx);
      return { ...output, provenance: wholeResult(item, resource, why) };
    },
  };
}
