import { Kind, type SelectionSetNode } from 'graphql';
import type { GraphqlLimits } from '../plugin/tool-spec.js';
import { GraphqlDocumentError, type AnalysedDocument } from './graphql-document.js';

/** The limits a measure is held to. */
export type ShapeLimits = Pick<GraphqlLimits, 'maxDepth' | 'maxFields' | 'introspection' | 'settings'>;

/** Fields asking for the schema itself; `__typename` is not one. */
const INTROSPECTION = new Set(['__schema', '__type']);

/**
 * The shape guards of a document its caller writes (a passthrough): how deep its operation nests fields and how
 * many it selects, with every alias counted and each fragment spread expanded every time it appears, as the
 * server will resolve them. The walk stops at the first field past a limit, so a document whose fragments double
 * at each level (2^30 fields once expanded) costs no more to refuse than maxFields fields. Throws a
 * GraphqlDocumentError naming the limit; returns the measure of a document within them.
 */
export function measureOperation(document: AnalysedDocument, limits: ShapeLimits): { depth: number; fields: number } {
  const named = (limit: 'maxDepth' | 'maxFields'): string => limits.settings?.[limit] ?? limit;
  let fields = 0;
  let deepest = 0;
  const walk = (set: SelectionSetNode, depth: number): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, depth);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) walk(document.fragments.get(selection.name.value)!.selectionSet, depth);
      else {
        if (INTROSPECTION.has(selection.name.value) && limits.introspection !== true) {
          throw new GraphqlDocumentError(
            `The GraphQL document asks for introspection (${selection.name.value}); this tool does not allow it. Ask for the data itself.`,
          );
        }
        if (depth > limits.maxDepth) {
          throw new GraphqlDocumentError(
            `The GraphQL document nests fields deeper than ${limits.maxDepth} levels (${named('maxDepth')}). Ask for fewer levels, or split the query.`,
          );
        }
        if (++fields > limits.maxFields) {
          throw new GraphqlDocumentError(
            `The GraphQL document asks for more than ${limits.maxFields} fields (${named('maxFields')}; aliases and each fragment spread count). Ask for fewer fields, or page.`,
          );
        }
        deepest = Math.max(deepest, depth);
        if (selection.selectionSet !== undefined) walk(selection.selectionSet, depth + 1);
      }
    }
  };
  walk(document.operation.selectionSet, 1);
  return { depth: deepest, fields };
}
