import type { Settings } from '../config/settings.js';
import { analyseEveryOperation, GraphqlDocumentError, MAX_DOCUMENT_BYTES, type AnalysedDocument } from '../http/graphql-document.js';
import type { DeclaredGraphql, DeclaredWire, ToolDefinition } from '../plugin/tool-definition.js';
import type { GraphqlLimits, ToolSpec } from '../plugin/tool-spec.js';

/** A declaration start-up cannot accept; the kernel puts the tool and plugin in front of the message. */
export class DeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeclarationError';
  }
}

export interface WireContext {
  /** The plugin's settings, for limits computed from them (a passthrough's depth, whether it may mutate). */
  settings?: Settings;
  /** MCP_READ_ONLY: a passthrough is held to queries, whatever its limits say. */
  readOnlyServer: boolean;
  /** The method of the REST route, when start-up could compute it. */
  method?: string;
}

/**
 * What a tool may send, read from its spec once: whether it can change something, and for a GraphQL tool its
 * documents (each parsed, none a subscription, no mutation under readOnlyHint) or the limits its caller's
 * documents are held to. Throws a DeclarationError that says what to change.
 */
export function declaredWire(spec: ToolSpec, context: WireContext): DeclaredWire {
  if (spec.graphql === undefined) return { writes: context.method === undefined ? undefined : context.method !== 'GET' };
  if (typeof spec.route !== 'function') {
    throw new DeclarationError('it declares graphql but no route: give it route: (args) => ({ graphql: { document, variables } }).');
  }
  const graphql = declaredGraphql(spec, context);
  const writes = graphql.documents !== undefined ? documentsWrite(spec, graphql) : graphql.limits!.mutations;
  return { writes, graphql };
}

/** The wire of a tool as the kernel registered it, or as read now from its spec (a definition made by hand, in tests). */
export function wireOf(tool: ToolDefinition, readOnlyServer: boolean): DeclaredWire {
  if (tool.wire !== undefined) return tool.wire;
  let wire = unregistered.get(tool);
  if (wire === undefined) unregistered.set(tool, (wire = declaredWire(tool.spec, { readOnlyServer })));
  return wire;
}

const unregistered = new WeakMap<ToolDefinition, DeclaredWire>();

/** Every operation a declared document holds, analysed (a document of several operations is each of them). */
const analysedDocuments = new WeakMap<DeclaredGraphql, AnalysedDocument[]>();

function declaredGraphql(spec: ToolSpec, context: WireContext): DeclaredGraphql {
  const { documents, limits } = spec.graphql!;
  if ((documents === undefined) === (limits === undefined)) {
    throw new DeclarationError(
      'its graphql declares both documents and limits, or neither: give documents (the operations it sends) or limits (for documents its caller writes), not both.',
    );
  }
  if (documents !== undefined) {
    if (!Array.isArray(documents) || documents.length === 0 || documents.some((d) => typeof d !== 'string')) {
      throw new DeclarationError('its graphql.documents must be a non-empty list of GraphQL documents (strings).');
    }
    const analysed = documents.flatMap((text, i) => operationsOf(text, i));
    const declared: DeclaredGraphql = { documents: new Set(analysed.map((a) => a.canonical)) };
    analysedDocuments.set(declared, analysed);
    return declared;
  }
  return { limits: effectiveLimits(typeof limits === 'function' ? limitsFrom(limits, context.settings) : limits!, context.readOnlyServer) };
}

/** One analysis per operation of a document, each checked as a request naming it would be. */
function operationsOf(text: string, index: number): AnalysedDocument[] {
  try {
    return analyseEveryOperation(text);
  } catch (error) {
    if (error instanceof GraphqlDocumentError) throw new DeclarationError(`its graphql.documents[${index}] is refused: ${error.message}`);
    throw error;
  }
}

function documentsWrite(spec: ToolSpec, declared: DeclaredGraphql): boolean {
  const mutation = analysedDocuments.get(declared)!.find((a) => a.facts.operation === 'mutation');
  if (mutation !== undefined && spec.annotations?.readOnlyHint === true) {
    throw new DeclarationError(
      `it is annotated readOnlyHint: true, but its document ${mutation.facts.name ?? '(anonymous)'} is a mutation (${mutation.facts.fields.join(', ')}). ` +
        'A read-only tool sends queries only: annotate it readOnlyHint: false (with destructiveHint as fits), or declare only queries.',
    );
  }
  return mutation !== undefined;
}

function limitsFrom(limits: (settings: Settings) => GraphqlLimits, settings: Settings | undefined): GraphqlLimits {
  if (settings === undefined) throw new DeclarationError('its graphql.limits is computed from settings, which this kernel did not give.');
  return limits(settings);
}

const positiveInteger = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value > 0;

function effectiveLimits(limits: GraphqlLimits, readOnlyServer: boolean): NonNullable<DeclaredGraphql['limits']> {
  if (limits === null || typeof limits !== 'object' || !positiveInteger(limits.maxDepth) || !positiveInteger(limits.maxFields)) {
    throw new DeclarationError('its graphql.limits needs maxDepth and maxFields, each a whole number above 0 (such as { maxDepth: 10, maxFields: 500 }).');
  }
  for (const key of ['introspection', 'mutations'] as const) {
    if (limits[key] !== undefined && typeof limits[key] !== 'boolean') throw new DeclarationError(`its graphql.limits.${key} must be true or false.`);
  }
  if (limits.maxBytes !== undefined && !positiveInteger(limits.maxBytes)) {
    throw new DeclarationError(`its graphql.limits.maxBytes must be a whole number of bytes above 0 (default ${MAX_DOCUMENT_BYTES}).`);
  }
  return {
    maxDepth: limits.maxDepth,
    maxFields: limits.maxFields,
    maxBytes: limits.maxBytes ?? MAX_DOCUMENT_BYTES,
    introspection: limits.introspection === true,
    mutations: limits.mutations === true && !readOnlyServer,
    ...(limits.settings !== undefined ? { settings: limits.settings } : {}),
  };
}
