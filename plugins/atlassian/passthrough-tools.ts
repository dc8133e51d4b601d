import type { HttpMethod, UpstreamRequest } from '../../core/http/types.js';
import type { TSchema } from 'typebox';
import type { RoutedToolSpec, ToolAnnotations } from '../../core/plugin/contract.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { passthroughArgs, type ArgDocs } from './passthrough-args.js';

export const VERBS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Verb = (typeof VERBS)[number];

/** The closing note of every passthrough description. */
export const OUTPUT_NOTE = 'The text is the response body (TOON, or JSON with outputFormat "json").';

/** One Atlassian product's passthrough tool family: `jira_*`, `conf_*` or `bb_*`. */
export interface PassthroughProduct {
  toolPrefix: string;
  /** Shown in titles: "Jira GET Request". */
  label: string;
  args: ArgDocs;
  descriptions: Record<Verb, string>;
}

const ANNOTATIONS: Record<Verb, ToolAnnotations> = {
  get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  post: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  put: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  patch: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
};

const WITH_BODY: ReadonlySet<Verb> = new Set(['post', 'put', 'patch']);

interface PassthroughInput {
  path: string;
  queryParams?: Record<string, string>;
  body?: Record<string, unknown>;
}

/**
 * The spec of one passthrough tool. Only the `_get` tools have a structured envelope (`{data, incomplete?}`);
 * writes return text only.
 */
export function passthroughToolSpec(product: PassthroughProduct, verb: Verb): RoutedToolSpec<TSchema, TSchema | undefined> {
  const args = passthroughArgs(product.args);
  const input = WITH_BODY.has(verb) ? args.write : args.read;
  const method = verb.toUpperCase() as HttpMethod;
  const spec: RoutedToolSpec<TSchema, TSchema | undefined> = {
    name: `${product.toolPrefix}_${verb}`,
    title: `${product.label} ${method} Request`,
    description: product.descriptions[verb],
    annotations: ANNOTATIONS[verb],
    input,
    route: (raw: unknown): UpstreamRequest => {
      const a = raw as PassthroughInput; // validated against `input` before any route is computed
      return { method, path: a.path, query: a.queryParams, body: WITH_BODY.has(verb) ? a.body : undefined };
    },
  };
  if (verb === 'get') spec.envelope = ReadEnvelope;
  return spec;
}
