import type { TSchema } from 'typebox';
import type { Route, UpstreamBinding } from './upstream-types.js';
import type { ToolContext, ToolOutput } from './tool-context.js';
import type { GraphqlLimits, ToolSpec } from './tool-spec.js';

/** A tool as the kernel holds it after reading the decorators. */
export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly plugin: string;
  readonly handler: (ctx: ToolContext<TSchema, Route | undefined>) => Promise<ToolOutput>;
  /** The vendor plugin's upstream client, when it has one (policy and cache need its identity). */
  readonly upstream?: UpstreamBinding;
  /** What the tool may send, as start-up read it from the spec (core/pipeline/declared-wire.ts). */
  readonly wire?: DeclaredWire;
}

/** What start-up read of what a tool may send. */
export interface DeclaredWire {
  /**
   * Whether the tool can change something: a REST route that is not a GET, a GraphQL document holding a
   * mutation, a passthrough allowed mutations. Undefined when start-up cannot tell (a route it cannot compute).
   */
  readonly writes: boolean | undefined;
  readonly graphql?: DeclaredGraphql;
}

/** A GraphQL tool's declaration, as in force on this server. */
export interface DeclaredGraphql {
  /** Its fixed documents, by canonical form (core/http/graphql-document.ts); undefined for a passthrough. */
  readonly documents?: ReadonlySet<string>;
  /** A passthrough's limits, every default applied; `mutations` is false on a read-only server. */
  readonly limits?: Required<Omit<GraphqlLimits, 'settings'>> & Pick<GraphqlLimits, 'settings'>;
}
