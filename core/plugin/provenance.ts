/**
 * Whose words a result carries (docs/untrusted-content.md): the vocabulary a vendor tool labels its
 * people-written text with, the provenance plugin fences and withholds by, and policy's flow rules read.
 * Unknown is untrusted, and unknown confidentiality is private: a label never fails open.
 */
export type Integrity = 'trusted' | 'untrusted';
export type Confidentiality = 'public' | 'private';

/** One item of a result (an issue, a comment, a page): who wrote it, and who may read where it lives. */
export interface ProvenanceLabel {
  /** The item as a person names it: `acme/site#12`, `acme/site#12 (comment 4411)`. */
  item: string;
  /** Where it lives, as write targets are named (`github:acme/site`): what confidentiality is of. */
  resource: string;
  integrity: Integrity;
  confidentiality: Confidentiality;
  /** The author's login or account, when the vendor said. */
  author: string | null;
  /** Set when confidentiality could not be learned (a failed lookup) and private was assumed. */
  assumed?: boolean;
  /** Why, in the vendor's terms: `author_association NONE; repository public`. */
  why: string;
  /** Where a trusted person reads it (the vendor's web page), when the vendor said. */
  url?: string;
  /** The object in the tool's value that holds the item: keys and indexes from the top (empty: the value itself). */
  at: ReadonlyArray<string | number>;
  /** The keys of that object holding people-written text (`title`, `body`): what is fenced or withheld. */
  fields: readonly string[];
}

/** What a handler says of its result's provenance. */
export interface Provenance {
  labels: ProvenanceLabel[];
  /** Lookups that failed (a 403, a timeout): the labels they fed fell back to untrusted and private. */
  warnings: string[];
}

/**
 * What a tool declares of provenance (`ToolSpec.provenance`):
 * - `labels: true`: its results carry people-written text and its handler labels it (`ToolOutput.provenance`);
 *   a result without labels is labelled untrusted and private as a whole, with a warning;
 * - `labels: false`: its results carry no people-written text (ids, states, timings);
 * - `target`: for a write, the resource it writes to (`github:acme/site`), which flow rules judge.
 */
export interface ProvenanceSpec<A = Record<string, unknown>> {
  labels: boolean;
  target?: (args: A) => string | undefined;
}

/** The `_meta` key of a result's provenance: labels, the fence boundary, lockdown, warnings. */
export const PROVENANCE_META_KEY = 'mcp-devtools/provenance';

/** A resource's name as policy and labels compare it: vendor, colon, the vendor's path, case folded. */
export const resourceKey = (vendor: string, path: string): string => `${vendor}:${path}`.toLowerCase();

/** Why any path's answer (a passthrough's) is labelled whole: the typed tools label item by item. */
export const PASSTHROUGH_WHY = 'a passthrough answer does not say who wrote it or who may read it';

/**
 * The label of a whole result that says nothing of who wrote it or who may read it (a passthrough's answer, a
 * log, an image): untrusted and private, the text left as it is (no fields; a tool whose result is final text
 * has that text fenced whole).
 */
export function wholeResult(item: string, resource: string, why: string): Provenance {
  return {
    labels: [{ item, resource, integrity: 'untrusted', confidentiality: 'private', assumed: true, author: null, why, at: [], fields: [] }],
    warnings: [],
  };
}
