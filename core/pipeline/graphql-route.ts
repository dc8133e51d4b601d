import { ToolError } from '../errors/tool-error.js';
import { analyseDocument, GraphqlDocumentError, type AnalysedDocument } from '../http/graphql-document.js';
import { measureOperation } from '../http/graphql-shape.js';
import type { ToolDefinition } from '../plugin/tool-definition.js';
import type { DeclaredGraphql } from '../plugin/tool-definition.js';
import type { GraphqlFacts, GraphqlOperation } from '../plugin/upstream-types.js';
import { wireOf } from './declared-wire.js';

/** Where an operation comes from: the tool's route (its caller's arguments), or its handler beyond the route. */
export interface OperationSource {
  source: 'route' | 'handler';
  readOnlyServer: boolean;
  /** For a handler's operation: the document of the call's route, as prepared (canonical). */
  routeDocument?: string;
}

/**
 * Checks a GraphQL operation against what its tool declares, and says what it asks for. A tool of fixed documents
 * sends only those (anything else is a bug of its plugin: `tool_failed`, naming it). A passthrough's route
 * carries its caller's document: held to the tool's limits, and to queries unless mutations are allowed, with
 * `invalid_graphql` saying what to change (the arguments fit the schema: the document is what is refused); its
 * handler sends that document and nothing else. What is sent is the document as analysed (`canonical`).
 */
export function checkedOperation(
  tool: ToolDefinition,
  operation: GraphqlOperation,
  { source, readOnlyServer, routeDocument }: OperationSource,
): AnalysedDocument {
  const declared = wireOf(tool, readOnlyServer).graphql;
  const bug = (what: string): ToolError =>
    new ToolError('tool_failed', `The ${tool.plugin} plugin's ${tool.spec.name} ${what}; it was refused and nothing was sent.`);
  if (declared === undefined) throw bug('sent a GraphQL operation but declares no graphql on its spec');
  if (typeof operation?.document !== 'string') throw bug('sent a GraphQL operation without a document (a string)');
  const passthrough = declared.documents === undefined;
  const bound = passthrough ? { maxBytes: declared.limits!.maxBytes, setting: declared.limits!.settings?.maxBytes ?? 'maxBytes' } : undefined;
  let analysed: AnalysedDocument;
  try {
    analysed = analyseDocument(operation.document, operation.operationName, bound);
    if (passthrough && source === 'route') measureOperation(analysed, declared.limits!);
  } catch (error) {
    if (!(error instanceof GraphqlDocumentError)) throw error;
    if (passthrough && source === 'route') throw new ToolError('invalid_graphql', `Invalid GraphQL for ${tool.spec.name}: ${error.message}`);
    throw bug(`sent a GraphQL operation that is refused: ${error.message}`);
  }
  if (!passthrough && !declared.documents!.has(analysed.canonical)) {
    throw bug(`sent a GraphQL document it does not declare in graphql.documents (${describe(analysed.facts)})`);
  }
  if (passthrough && source === 'handler' && analysed.canonical !== routeDocument) {
    throw bug(`sent a GraphQL document other than its caller's (${describe(analysed.facts)}); a passthrough sends only the document it was given`);
  }
  if (passthrough && source === 'route' && analysed.types.includes('mutation') && !declared.limits!.mutations)
    throw mutationRefused(tool, declared, readOnlyServer);
  return analysed;
}

/** A caller's document holding a mutation, sent to a passthrough that sends queries only: what would allow it. */
function mutationRefused(tool: ToolDefinition, declared: DeclaredGraphql, readOnlyServer: boolean): ToolError {
  const setting = declared.limits!.settings?.mutations;
  const how = readOnlyServer
    ? 'This server is read-only (MCP_READ_ONLY=true): send a query.'
    : `Send a query${setting === undefined ? '' : `; an operator allows mutations with ${setting}=true`}.`;
  return new ToolError('invalid_graphql', `${tool.spec.name} sends queries only, and the document holds a mutation. ${how}`);
}

/** `mutation CreateIssue { issueCreate }`, as refusals name an operation. */
export function describe(facts: GraphqlFacts): string {
  return `${facts.operation} ${facts.name === null ? '' : `${facts.name} `}{ ${facts.fields.join(', ')} }`;
}
