import type { StageName } from '../plugin/stages.js';

/**
 * The pipeline of every tool call, in one place: its stages in the order they run, and within each stage the
 * contributors in the order they run (`plugin/name`; `kernel` is the kernel's own), with the upstream
 * interceptors in the slot where the handler sends its requests. A contributor runs only for the tools it
 * applies to (test/golden/pipeline-chains.json holds each tool's chain).
 *
 * Why this order: validation before policy, so rules see typed arguments and the one request the call may
 * make, prepared once; policy before the upstream call and its cache, so a cache hit cannot get around a rule;
 * the request gate outermost around the network, so every request a handler sends (a second page, a
 * follow-up read) is the one policy decided on or is decided itself; provenance fences and withholds untrusted
 * text before projection, so a jq expression picks a field with its fence (or its withheld line); projection feeds both the text and the
 * structured value; the envelope check before the spill, so no value that breaks its schema is stored or sent.
 *
 * The stages before `upstream` run around the rest of the call; the stages after it take what the handler
 * produced, in this order, each handing its result to the next (core/plugin/stages.ts).
 *
 * Middleware or interceptors of other plugins (not listed here) run after the listed ones of their stage,
 * ordered by `plugin/name`: never by the order plugins happened to boot in.
 */
export const PIPELINE = [
  { stage: 'envelope', contributors: ['kernel/result-envelope', 'policy/upstream-identity', 'policy/audit-log'] },
  { stage: 'validate', contributors: ['kernel/input-schema'] },
  { stage: 'policy', contributors: ['policy/audit-operation', 'policy/policy-decision'] },
  {
    stage: 'upstream',
    contributors: ['kernel/tool-handler'],
    interceptors: ['kernel/request-gate', 'kernel/call-observer', 'cache/http-cache', 'kernel/request-counter'],
  },
  { stage: 'project', contributors: ['provenance/labels-and-fences', 'projection/jmespath'] },
  { stage: 'render', contributors: ['toon/toon-or-json'] },
  { stage: 'truncate', contributors: ['truncation/model-text-limit'] },
  { stage: 'structured', contributors: ['structured/structured-envelope', 'kernel/envelope-check'] },
  { stage: 'spill', contributors: ['structured/structured-size-bound'] },
] as const satisfies ReadonlyArray<{ stage: StageName; contributors: readonly string[]; interceptors?: readonly string[] }>;

/** The stage names, in running order. */
export const STAGES = PIPELINE.map((s) => s.stage);

/** The interceptors the kernel wraps around every tool's own (`kernel/...` in the upstream slot). */
const UPSTREAM = PIPELINE[3];

/** Something placed in the pipeline: a stage middleware or an upstream interceptor, named `plugin/name`. */
export interface Placed {
  readonly plugin: string;
  readonly name: string;
}

export const qualifiedName = (p: Placed): string => `${p.plugin}/${p.name}`;

/**
 * Sorts contributions by their place in `listed` (unlisted ones last, by qualified name). Stable and
 * independent of the order they were collected in.
 */
export function byListedOrder<T extends Placed>(items: readonly T[], listed: readonly string[]): T[] {
  const rank = (item: T): number => {
    const at = listed.indexOf(qualifiedName(item));
    return at === -1 ? listed.length : at;
  };
  return [...items].sort((a, b) => rank(a) - rank(b) || (rank(a) === listed.length ? qualifiedName(a).localeCompare(qualifiedName(b)) : 0));
}

/** The rank of a stage, for sorting middleware by stage first. */
export function stageRank(stage: string): number {
  return STAGES.indexOf(stage as (typeof STAGES)[number]);
}

/** Contributors of one stage, as listed. */
export function listedContributors(stage: string): readonly string[] {
  return PIPELINE.find((s) => s.stage === stage)?.contributors ?? [];
}

/** Interceptors as listed in the upstream slot. */
export const LISTED_INTERCEPTORS: readonly string[] = UPSTREAM.interceptors;
