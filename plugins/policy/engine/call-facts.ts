import { servedPath } from '../../../core/http/path-guards.js';
import type { CallActing, GraphqlFacts, UpstreamIdentity } from '../../../core/plugin/upstream-types.js';
import { publicUpstream, type PublicIdentity } from '../../../core/plugin/public-upstream.js';
import type { Call } from '../../../core/plugin/call.js';
import type { Principal } from '../../../core/identity/principal.js';
import type { ToolDefinition } from '../../../core/plugin/contract.js';
import type { PreparedRequest } from '../../../core/plugin/upstream-types.js';
import type { ReadRequest } from '../../resource-names/named-resources.js';

export type { PublicIdentity } from '../../../core/plugin/public-upstream.js';

/**
 * What a policy decides on, gathered once per call. Tool-level facts never change for a tool in a running
 * server, principal-level ones for a caller, request-level ones per call: the engine caches by the first two.
 */
export interface CallFacts {
  tool: string;
  /** The upstream identity's vendor, or the plugin's name for a tool without an upstream. */
  vendor: string;
  readOnly: boolean;
  identity: PublicIdentity | null;
  subject: string;
  groups: readonly string[];
  method: string | null;
  /** The upstream path as the vendor serves it (see servedPath): what path rules match; null without a request. */
  path: string | null;
  args: Readonly<Record<string, unknown>>;
  /** What a GraphQL operation asks for (operation type, name, root fields); null or absent for a REST call. */
  graphql?: GraphqlFacts | null;
  /** What the caller's session has read, and where this call writes (flow rules); absent when no rule asks. */
  flow?: FlowFacts;
  /** The request as sent (query and body too), for the `resources` condition: what it names; absent without one. */
  request?: ReadRequest;
}

/** A prepared request as the `resources` condition reads it. */
export function readRequestOf(prepared: PreparedRequest | undefined): ReadRequest | undefined {
  if (prepared === undefined) return undefined;
  return { method: prepared.method, path: prepared.path, search: prepared.url.search, body: prepared.body, graphql: prepared.graphql !== undefined };
}

/** A session's flow facts as policy sees them (plugins/policy/flow/session-flow.ts). */
export interface FlowFacts {
  /** The first untrusted item the session read (`acme/site#12`), if any. */
  untrusted?: string;
  /** The first private resource the session read (`github:acme/secret`), if any. */
  private?: string;
  /** The resource this call writes to, and its visibility as learned (unknown counts as public); null for none. */
  target: { resource: string; visibility: 'public' | 'private'; known: boolean } | null;
  /** Set when the store could not be read: the session is taken to have read everything (fail closed). */
  storeDown?: boolean;
}

export function publicIdentity(identity: UpstreamIdentity | undefined, acting?: CallActing): PublicIdentity | null {
  return publicUpstream(identity, acting);
}

/** The facts of a call that has passed the validate stage (so args, route and prepared request are set). */
export function callFacts(ctx: Pick<Call, 'tool' | 'principal' | 'args' | 'route' | 'prepared' | 'acting'>): CallFacts {
  const request = readRequestOf(ctx.prepared);
  const facts = factsFor(
    ctx.tool,
    ctx.principal,
    ctx.args,
    ctx.prepared?.method ?? ctx.route?.method,
    ctx.prepared?.path ?? ctx.route?.path,
    ctx.prepared?.graphql,
    ctx.acting,
  );
  return request === undefined ? facts : { ...facts, request };
}

export function factsFor(
  tool: ToolDefinition,
  principal: Principal,
  args: Record<string, unknown>,
  method: string | undefined,
  path: string | undefined,
  graphql?: GraphqlFacts,
  acting?: CallActing,
): CallFacts {
  const identity = publicIdentity(tool.upstream?.identity, acting);
  return {
    tool: tool.spec.name,
    vendor: identity?.vendor ?? tool.plugin,
    readOnly: tool.spec.annotations.readOnlyHint,
    identity,
    subject: principal.subject,
    groups: principal.groups,
    method: method ?? null,
    path: path === undefined ? null : servedPath(path),
    args,
    graphql: graphql ?? null,
  };
}
