import { Kind, type OperationDefinitionNode, type ValueNode } from 'graphql';
import { graphqlLanguage } from '../../core/http/graphql-library.js';

/** The most ids one lookup resolves (GitHub's `nodes(ids:)` takes 100). */
export const MOST_IDS = 100;

/**
 * An input field that names a node by id: `subjectId`, `issueId`, `labelIds`, and `id` itself, which many inputs
 * name the node they change by (`updateIssue`, `updateIssueComment`, `deleteIssueComment`); not
 * `clientMutationId` (the caller's own tag).
 */
const NAMES_A_NODE = /^ids?$|(?:Id|Ids)$/;

/**
 * The node ids a GitHub GraphQL mutation acts on: every argument or input field named `id` or `ids`, or whose name
 * ends in `Id` or `Ids` (`updateIssue(input: {id})`, `addComment(input: {subjectId})`,
 * `addLabelsToLabelable(input: {labelableId, labelIds})`), literal or
 * from the variables, however deep in the input. Undefined for a request that is not a mutation (or does not
 * parse: the request gate refuses it); more than MOST_IDS are returned as they are, for the caller to refuse.
 */
export function mutationNodeIds(body: string | undefined): string[] | undefined {
  let operation: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    operation = JSON.parse(body ?? '') as typeof operation;
  } catch {
    return undefined;
  }
  if (operation === null || typeof operation !== 'object' || typeof operation.query !== 'string') return undefined;
  const variables = operation.variables !== null && typeof operation.variables === 'object' ? (operation.variables as Record<string, unknown>) : {};
  let chosen: OperationDefinitionNode | undefined;
  try {
    const operations = graphqlLanguage()
      .parse(operation.query)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    chosen = typeof operation.operationName === 'string' ? operations.find((o) => o.name?.value === operation.operationName) : operations[0];
  } catch {
    return undefined;
  }
  if (chosen?.operation !== 'mutation') return undefined;
  const ids = new Set<string>();
  const fromJson = (value: unknown, naming: boolean): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      if (naming) ids.add(String(value));
    } else if (Array.isArray(value)) for (const v of value) fromJson(v, naming);
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) fromJson(v, k !== 'clientMutationId' && NAMES_A_NODE.test(k));
  };
  const fromAst = (value: ValueNode, naming: boolean): void => {
    if (value.kind === Kind.STRING || value.kind === Kind.INT) {
      if (naming) ids.add(value.value);
    } else if (value.kind === Kind.VARIABLE) fromJson(variables[value.name.value], naming);
    else if (value.kind === Kind.LIST) for (const v of value.values) fromAst(v, naming);
    else if (value.kind === Kind.OBJECT) for (const f of value.fields) fromAst(f.value, f.name.value !== 'clientMutationId' && NAMES_A_NODE.test(f.name.value));
  };
  for (const selection of chosen.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    for (const argument of selection.arguments ?? []) fromAst(argument.value, NAMES_A_NODE.test(argument.name.value));
  }
  return [...ids];
}
