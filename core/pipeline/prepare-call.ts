import type { TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';
import { ToolError } from '../errors/tool-error.js';
import { graphqlRequest } from '../http/graphql-request.js';
import { safeApiPath } from '../http/path-guards.js';
import { isGraphqlRoute, type GraphqlFacts, type PreparedRequest, type Route, type UpstreamRequest } from '../plugin/upstream-types.js';
import type { ToolDefinition } from '../plugin/contract.js';
import { declaresDefaults } from '../schema/declares-defaults.js';
import { MAX_ARGUMENT_DEPTH, tooDeeplyNested } from '../schema/argument-depth.js';
import { describeValidationErrors } from '../schema/validation-errors.js';
import { restRouteOperation } from './graphql-endpoint.js';
import { checkedOperation, describe } from './graphql-route.js';
import { writeRefusal } from './request-gate.js';

export interface PreparedCall {
  args: Record<string, unknown>;
  route?: Route;
  prepared?: PreparedRequest;
}

/** A tool's compiled input schema, and whether the schema declares any default to apply: both decided once per tool. */
export interface CompiledInput {
  validator: Validator;
  appliesDefaults: boolean;
}

/** The compiled input of a schema, whether it declares defaults decided with it (declares-defaults.ts). */
export const compiledInput = (validator: Validator, schema: TSchema): CompiledInput => ({ validator, appliesDefaults: declaresDefaults(schema) });

/**
 * Validates a call's arguments (applying schema defaults) and computes the upstream request it would make,
 * without sending anything. The validate stage runs this; `policy explain` runs it too, so both decide on
 * exactly the same request, prepared once. Throws `invalid_arguments`, `invalid_path`, or `tool_failed` for a
 * write a read-only tool (or server) may not send.
 */
export function prepareCall(tool: ToolDefinition, input: CompiledInput, rawArgs: Record<string, unknown>, readOnlyServer = false): PreparedCall {
  const { validator } = input;
  const deep = tooDeeplyNested(rawArgs);
  if (deep !== undefined) {
    throw new ToolError(
      'invalid_arguments',
      `Invalid arguments for ${tool.spec.name}:\n- ${deep}: is nested more than ${MAX_ARGUMENT_DEPTH} levels deep; send a flatter value.`,
    );
  }
  const copy = structuredClone(rawArgs);
  const args = (input.appliesDefaults ? withDefaults(validator, copy) : copy) as Record<string, unknown>;
  if (!validator.Check(args)) {
    const lines = describeValidationErrors(validator.Errors(args), args, tool.spec.input);
    throw new ToolError('invalid_arguments', `Invalid arguments for ${tool.spec.name}:\n${lines.join('\n')}`);
  }
  if (tool.spec.route === undefined) return { args };
  const route = tool.spec.route(args as never, tool.upstream);
  if (isGraphqlRoute(route) !== (tool.spec.graphql !== undefined)) {
    const what = tool.spec.graphql === undefined ? 'a GraphQL operation, but the tool declares no graphql' : 'a REST request, but the tool declares graphql';
    throw new ToolError('tool_failed', `The ${tool.plugin} plugin's ${tool.spec.name} has a route that computed ${what}; nothing was sent.`);
  }
  let request: UpstreamRequest;
  let graphql: GraphqlFacts | undefined;
  if (isGraphqlRoute(route)) {
    graphql = checkedOperation(tool, route.graphql, { source: 'route', readOnlyServer }).facts;
    request = graphqlRequest(route.graphql, tool.upstream?.graphqlPath, graphql.name);
  } else request = route;
  // Start-up refused a read-only tool whose route is a write where it could compute the route; this holds
  // for every route (one whose method depends on its arguments, a GraphQL operation), before policy or any request.
  const what = graphql === undefined ? `${request.method} ${request.path}` : describe(graphql);
  const write = writeRefusal(
    tool,
    { write: graphql === undefined ? request.method !== 'GET' : graphql.operation === 'mutation', what, graphql: graphql !== undefined },
    readOnlyServer,
  );
  if (write !== undefined) throw write;
  // Preparing checks path safety now, so a bad path is refused before policy or any request. The path as it
  // will be sent is checked again here, whoever prepared it: a third-party binding (or one built against an
  // older copy of this package) gets the same refusals as the built-in client.
  const prepared = tool.upstream?.prepare(request);
  if (prepared === undefined) return { args, route };
  safeApiPath(prepared.path, tool.upstream!.identity.vendor);
  // A REST route to the GraphQL endpoint (a POST) is decided on the operation it carries, as a GraphQL route is.
  if (prepared.method === 'POST') graphql ??= restRouteOperation(tool, request, prepared);
  return { args, route, prepared: graphql === undefined ? prepared : { ...prepared, graphql } };
}

/**
 * The arguments with the schema's defaults applied. typebox's Value.Default throws on some values the schema
 * refuses (a record key its pattern does not allow); such arguments are invalid whatever the defaults, so they go
 * on as they came and the check that follows names what to fix.
 */
function withDefaults(validator: Validator, args: Record<string, unknown>): unknown {
  try {
    return validator.Default(args);
  } catch {
    return args;
  }
}
