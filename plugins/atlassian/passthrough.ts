import Type, { type TObject, type TSchema } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { HttpMethod, UpstreamRequest, UpstreamResponse } from '../../core/plugin/upstream-types.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../core/plugin/tool-context.js';
import type { DevtoolsPlugin, RoutedToolSpec, ToolAnnotations } from '../../core/plugin/contract.js';
import { defineTool, type DefinedTool } from '../../core/plugin/define-tool.js';
import { anyJsonValue, OutputFormatArg } from '../../core/schema/common-args.js';
import { ReadEnvelope } from '../../core/schema/envelopes.js';
import { PASSTHROUGH_WHY, wholeResult } from '../../core/plugin/provenance.js';

/*
 * The passthrough tools of an Atlassian product (`jira_*`, `conf_*`, `bb_*`): their arguments, their specs,
 * the one handler behind them and how it turns a response into the reference servers' value.
 */

/** Per-product wording of the passthrough arguments; names and semantics are the reference servers'. */
export interface ArgDocs {
  /** What `path` is, with examples of the product's paths. */
  path: string;
  /** Example query parameters of the product (page size, filters). */
  queryExample: string;
  /** Example JMESPath projections on the product's response shapes. */
  jqExample: string;
  /** Example request body. */
  bodyExample: string;
}

export interface PassthroughArgs {
  /** `path`, `queryParams`, `jq`, `outputFormat`: the GET and DELETE tools. */
  read: TObject;
  /** The same plus a required JSON object `body`: the POST, PUT and PATCH tools. */
  write: TObject;
}

/**
 * The passthrough tools' input schemas. Unknown arguments are refused (the reference silently drops them): a
 * misspelt `queryParams` or `jq` would otherwise fetch the whole unfiltered resource without a word.
 */
export function passthroughArgs(docs: ArgDocs): PassthroughArgs {
  const common = {
    path: Type.String({ minLength: 1, description: docs.path }),
    queryParams: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: `Query parameters (string values), e.g. ${docs.queryExample}.`,
      }),
    ),
    jq: Type.Optional(
      Type.String({
        description: `JMESPath applied to the response: keep only what you need, e.g. ${docs.jqExample}.`,
      }),
    ),
    outputFormat: OutputFormatArg,
  };
  const body = Type.Record(Type.String(), anyJsonValue(), {
    description: `JSON request body, e.g. ${docs.bodyExample}.`,
  });
  return {
    read: Type.Object(common, { additionalProperties: false }),
    write: Type.Object({ ...common, body }, { additionalProperties: false }),
  };
}

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
  /** The toolset the five tools belong to (`jira`); omitted, the plugin's name. */
  toolset?: string;
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
    referenceJqError: true,
    route: (raw: unknown): UpstreamRequest => {
      const a = raw as PassthroughInput; // validated against `input` before any route is computed
      return { method, path: a.path, query: a.queryParams, body: WITH_BODY.has(verb) ? a.body : undefined };
    },
  };
  if (verb === 'get') {
    spec.envelope = ReadEnvelope;
    // Any path's answer may hold people's text, and says nothing of who wrote it: labelled whole (see below).
    spec.provenance = { labels: true };
  }
  if (product.toolset !== undefined) spec.toolset = product.toolset;
  return spec;
}

export interface PassthroughBehaviour {
  /** Bitbucket keeps any `text/plain` body as a string, even one that would parse as JSON. */
  plainTextStaysText: boolean;
  /** Which settings hold the credentials, added to a 401 so the fix is named. */
  credentialsHint(): string;
}

/** Sends the route the validate stage computed and turns the response into the reference servers' value. */
export async function callPassthrough(client: UpstreamClient, ctx: ToolContext, behaviour: PassthroughBehaviour): Promise<ToolOutput> {
  let response: UpstreamResponse;
  try {
    response = await client.send(ctx, ctx.route, { expect: 'lenient' });
  } catch (error) {
    if (error instanceof ToolError && error.status === 401) {
      throw new ToolError(error.code, `${error.message} ${behaviour.credentialsHint()}`, {
        status: error.status,
        upstreamBody: error.upstreamBody,
        meta: error.meta,
        cause: error,
      });
    }
    throw error;
  }
  return referenceValue(response, behaviour.plainTextStaysText);
}

/**
 * The value the reference servers render: 204 or a blank body is `{}`; JSON is parsed; any other body stays a
 * string (Jira and Confluence ignore Content-Type; Bitbucket keeps `text/plain` as is, blank included). The
 * reference saves a raw file only for JSON bodies, so only those may name a saved file when truncated.
 */
export function referenceValue(response: UpstreamResponse, plainTextStaysText: boolean): ToolOutput {
  const contentType = response.headers.get('content-type') ?? '';
  if (plainTextStaysText && response.status !== 204 && contentType.includes('text/plain')) return { value: response.text, saveTruncated: false };
  if (response.kind === 'empty') return { value: {}, saveTruncated: false };
  return { value: response.body, saveTruncated: response.kind === 'json' };
}

/** What a passthrough tool's handler uses of its plugin: the client, and how the product's answers are read. */
export interface PassthroughDeps {
  readonly upstream: UpstreamClient;
  readonly behaviour: PassthroughBehaviour;
}

/**
 * What the Jira, Confluence and Bitbucket plugins share: the client and behaviour their passthrough tools use.
 * Each tool's route (computed from its arguments at validation) already says which method and path to send.
 */
export abstract class AtlassianPassthroughPlugin implements DevtoolsPlugin, PassthroughDeps {
  protected constructor(
    readonly upstream: UpstreamClient,
    readonly behaviour: PassthroughBehaviour,
  ) {}
}

/** A product's `<prefix>_get|post|put|patch|delete` tools, one handler behind the five. */
export function passthroughTools(product: PassthroughProduct): DefinedTool<PassthroughDeps>[] {
  // Typed as the spec is: one envelope or none, by verb (the `_get` tool's alone is ReadEnvelope).
  return VERBS.map((verb) =>
    defineTool<TSchema, TSchema | undefined, PassthroughDeps>({
      ...passthroughToolSpec(product, verb),
      handler: async (ctx, plugin) => {
        const output = await callPassthrough(plugin.upstream, ctx, plugin.behaviour);
        return verb === 'get'
          ? { ...output, provenance: wholeResult(`GET ${ctx.route.path}`, `${plugin.upstream.identity.vendor}:unknown`, PASSTHROUGH_WHY) }
          : output;
      },
    }),
  );
}
