import { jsonPieces } from './json-pieces.js';

/**
 * A rendering left in pieces for the truncate stage: pieces already made (TOON, or the JSON of a body that
 * hasLargeText), or a big value whose pretty JSON is made in pieces each time it is read, so that it is never
 * whole (core/pipeline/answer.ts).
 *
 * Data, not a closure. The render stage used to leave a function made for the call (`() => pieces`), and its
 * context outlived the call through V8's young collections: a 30-run workflow-runs page's 400 KB of TOON was
 * promoted to the old generation on every call, and the young collections took 2.3 ms a call against 0.2-0.4 with
 * the array left here (docs/benchmarks.md, issue 18 round thirteen). A big value's JSON is left the same way, as a
 * plain object naming the value; there the value lives through the call's own young collections whichever way it
 * is left (a 12 MiB page: 15.4 MB promoted a call either way).
 */
export type Rendering = readonly string[] | { readonly prettyJsonOf: unknown };

/** The pieces of a rendering: the ones made, or the value's pretty JSON made anew. */
export function renderingPieces(rendering: Rendering): Iterable<string> {
  return isMadePieces(rendering) ? rendering : jsonPieces(rendering.prettyJsonOf, 2);
}

/** Whether the pieces are made already (written in the tick; RawResponseFiles.open says why). */
export function isMadePieces(rendering: Rendering): rendering is readonly string[] {
  return Array.isArray(rendering);
}
