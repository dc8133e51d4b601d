import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { graphqlLanguage } from './graphql-library.js';
import type { GraphqlFacts, GraphqlOperationType } from '../plugin/upstream-types.js';

/** Tokens a document may have before parsing stops: far above any real operation, far below a denial of service. */
export const MAX_DOCUMENT_TOKENS = 20_000;

/**
 * Bytes a document may have, comments and layout included (which the token count does not see): 100 KiB, room
 * for any operation a person or an agent writes; a passthrough's limits may set another bound.
 */
export const MAX_DOCUMENT_BYTES = 102_400;

/** The byte bound a document is held to, and the setting that sets it (named when a document is refused). */
export interface DocumentBound {
  readonly maxBytes: number;
  readonly setting?: string;
}

/** What is wrong with a GraphQL document, in words for whoever wrote it (a plugin author, or the agent). */
export class GraphqlDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphqlDocumentError';
  }
}

/** A parsed document and the operation a request runs from it. */
export interface AnalysedDocument {
  /** Its operation type, name and root fields (fragments at the root expanded): what policy and the audit see. */
  readonly facts: GraphqlFacts;
  /** The type of every operation the document holds, in order (a mutation beside the query that runs is seen). */
  readonly types: readonly GraphqlOperationType[];
  /**
   * The document printed from its syntax tree (graphql's print), without the sender's layout or comments: how two
   * documents are compared, and what is sent, so that the vendor parses exactly what policy read.
   */
  readonly canonical: string;
  readonly operation: OperationDefinitionNode;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

/**
 * Parses a document (with the `graphql` package) and picks the operation a request with `operationName` runs,
 * as a GraphQL server would: the named one, or the only one. Refuses what no request should carry: a syntax
 * error, a subscription, type system definitions, a spread of an undefined fragment, fragments in a cycle.
 */
export function analyseDocument(text: string, operationName?: string, bound: DocumentBound = { maxBytes: MAX_DOCUMENT_BYTES }): AnalysedDocument {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > bound.maxBytes) {
    throw new GraphqlDocumentError(
      `The GraphQL document is ${bytes} bytes, more than the ${bound.maxBytes} a document may have${bound.setting === undefined ? '' : ` (${bound.setting})`}, comments and layout included; send a shorter one.`,
    );
  }
  const document = parsed(text);
  const operations: OperationDefinitionNode[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
    else if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else throw new GraphqlDocumentError(`The GraphQL document holds a type system definition (${definition.kind}); send only operations and fragments.`);
  }
  const subscription = operations.find((o) => o.operation === 'subscription');
  if (subscription !== undefined) {
    throw new GraphqlDocumentError(
      `The GraphQL document holds a subscription${subscription.name ? ` (${subscription.name.value})` : ''}; subscriptions are not supported: send a query or a mutation.`,
    );
  }
  refuseBrokenFragments(document, fragments);
  const operation = chosenOperation(operations, operationName);
  return {
    facts: {
      operation: operation.operation as GraphqlOperationType,
      name: operation.name?.value ?? null,
      fields: rootFields(operation.selectionSet, fragments),
    },
    types: operations.map((o) => o.operation as GraphqlOperationType),
    canonical: graphqlLanguage().print(document),
    operation,
    fragments,
  };
}

/**
 * A document as its syntax tree prints (graphql's print, as `canonical`): what a client sends in place of the
 * text it was given, so that the vendor parses what policy read (no comments, no layout a parser could read
 * otherwise). Undefined for a text that does not parse: it is sent as written, and refused where it is read.
 */
export function printedDocument(text: string): string | undefined {
  const { parse, print, GraphQLError } = graphqlLanguage();
  try {
    return print(parse(text, { noLocation: true, maxTokens: MAX_DOCUMENT_TOKENS }));
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
}

/** Each operation of a document, analysed as a request naming it would be: what a tool declaring it may send. */
export function analyseEveryOperation(text: string): AnalysedDocument[] {
  const names = parsed(text)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .map((o) => o.name?.value);
  if (names.length <= 1) return [analyseDocument(text)];
  if (names.some((n) => n === undefined)) {
    throw new GraphqlDocumentError(
      'The GraphQL document holds several operations, one of them anonymous: name each, so that a request can say which one to run.',
    );
  }
  return names.map((name) => analyseDocument(text, name));
}

function parsed(text: string): DocumentNode {
  const { parse, GraphQLError } = graphqlLanguage();
  try {
    return parse(text, { noLocation: true, maxTokens: MAX_DOCUMENT_TOKENS });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (/Document contains more th\w+ \d+ tokens/.test(error.message)) {
      throw new GraphqlDocumentError(`The GraphQL document has more than ${MAX_DOCUMENT_TOKENS} tokens; send a shorter one.`);
    }
    const at = error.locations?.[0];
    throw new GraphqlDocumentError(`The GraphQL document does not parse: ${error.message}${at ? ` (line ${at.line}, column ${at.column})` : ''}`);
  }
}

function chosenOperation(operations: readonly OperationDefinitionNode[], name: string | undefined): OperationDefinitionNode {
  if (operations.length === 0) throw new GraphqlDocumentError('The GraphQL document holds no operation: send a query such as { viewer { login } }.');
  const names = operations.map((o) => o.name?.value ?? '(anonymous)').join(', ');
  if (name !== undefined && name !== '') {
    const named = operations.find((o) => o.name?.value === name);
    if (named === undefined) throw new GraphqlDocumentError(`The GraphQL document has no operation named ${JSON.stringify(name)}; it holds ${names}.`);
    return named;
  }
  if (operations.length > 1) {
    throw new GraphqlDocumentError(`The GraphQL document holds ${operations.length} operations (${names}): give operationName to say which one to run.`);
  }
  return operations[0]!;
}

/** The fragments each selection set spreads, without entering them. */
function spreadsOf(set: SelectionSetNode, into: string[] = []): string[] {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) into.push(selection.name.value);
    else if (selection.selectionSet !== undefined) spreadsOf(selection.selectionSet, into);
  }
  return into;
}

/** Every spread names a defined fragment, and no fragment reaches itself (which would expand without end). */
function refuseBrokenFragments(document: DocumentNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): void {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    for (const name of spreadsOf(definition.selectionSet)) {
      if (!fragments.has(name)) throw new GraphqlDocumentError(`The GraphQL document spreads fragment ${JSON.stringify(name)}, which it does not define.`);
    }
  }
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) {
      const cycle = [...path.slice(path.indexOf(name)), name].join(' -> ');
      throw new GraphqlDocumentError(`The GraphQL document's fragments spread each other in a cycle (${cycle}); fragments cannot be recursive.`);
    }
    if (done.has(name)) return;
    for (const next of spreadsOf(fragments.get(name)!.selectionSet)) visit(next, [...path, name]);
    done.add(name);
  };
  for (const name of fragments.keys()) visit(name, []);
}

/** The root fields an operation selects, by field name (an alias cannot rename one), fragments at the root expanded once. */
function rootFields(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string[] {
  const fields = new Set<string>();
  const entered = new Set<string>();
  const walk = (selections: SelectionSetNode): void => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) fields.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!entered.has(selection.name.value)) {
        entered.add(selection.name.value);
        walk(fragments.get(selection.name.value)!.selectionSet);
      }
    }
  };
  walk(set);
  return [...fields];
}
