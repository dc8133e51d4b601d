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

/** Where a result holds text whose author is not known: an object (keys and indexes from the top) and its keys. */
export interface UnknownAuthorText {
  at: ReadonlyArray<string | number>;
  fields: readonly string[];
}

/**
 * A read tool whose result says nothing of who wrote its text, but whose shape says where that text is (a test's
 * message and name, a commit's subject): labelled untrusted and private like `labelledWhole`, one label per place,
 * so the text itself is fenced (or withheld under lockdown) and the ids, states and counts around it are not.
 */
export function labelledPlaces<D>(
  tool: DefinedTool<D>,
  label: (ctx: AnyToolContext) => WholeLabel,
  places: (value: unknown) => UnknownAuthorText[],
): DefinedTool<D> {
  return {
    spec: { ...tool.spec, provenance: { labels: true } },
    handler: async (ctx, deps) => {
      const output = await tool.handler(ctx, deps);
      const { item, resource, why } = label(ctx);
      const [whole] = wholeResult(item, resource, why).labels;
      const found = places(output.value);
      // Nothing to point at (an empty page): still one label, so the session knows it read this build's output.
      const labels = found.length === 0 ? [whole!] : found.map(({ at, fields }) => ({ ...whole!, at, fields }));
      return { ...output, provenance: { labels, warnings: [] } };
    },
  };
}
