import type { ToolDescriptor } from '../../core/plugin/contract.js';
import { AllowlistSummary, ProvenanceSummary } from '../../core/schema/envelopes.js';
import { docComment, typeOf, type TypeStyle } from './schema-types.js';

/**
 * Input properties that only shape a result's text: a program gets the structured value, so they are left out
 * of its declarations (the server accepts them, but they change nothing a program sees).
 */
const TEXT_ONLY_INPUTS = new Set(['outputFormat']);

/** Output properties a program never sees: an incomplete value is read back whole before the program gets it. */
const RESOLVED_OUTPUTS = ['incomplete'];

/** The envelope's member only an allowlist (MCP_ALLOW_*) adds: declared only where one is set. */
const ALLOWLIST_OUTPUT = 'allowlist';

/** What a server's configuration says of the values its tools can return. */
export interface DeclarationOptions {
  /** Whether an MCP_ALLOW_* list is set: without one, no result has an `allowlist` member. */
  readonly allowlists: boolean;
}

/**
 * Types many tools share, declared once (SANDBOX_GLOBALS) and written by name in each tool's declarations: an
 * object whose type renders as one of these is written as its name.
 */
const SHARED_TYPES: ReadonlyArray<readonly [name: string, type: string]> = [
  ['Provenance', typeOf(ProvenanceSummary, 'output', 2)],
  ['Allowlist', typeOf(AllowlistSummary, 'output', 2)],
];

/**
 * Properties whose meaning GLOBALS_NOTE says once for every tool, so their doc comments are not repeated per
 * tool: the projection argument, the paging pair, and the envelope's `data`.
 */
const COMMON_DOCS = new Set(['jq', 'page', 'perPage', 'data', 'nextPage', 'nextCursor', 'provenance', 'allowlist']);

const STYLE: TypeStyle = { commonDocs: COMMON_DOCS, shared: new Map(SHARED_TYPES.map(([name, type]) => [type, name])) };

/** The declarations of the sandbox's globals besides `tools`: what the prelude defines (sandbox/prelude.ts). */
export const SANDBOX_GLOBALS = `/** What a program prints: console.log and its siblings write one line each (values that are not strings as JSON). */
declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };
/** A tool call that ended with an error result. */
declare class ToolCallError extends Error { readonly tool: string; readonly code: string; readonly meta: Record<string, unknown> | undefined }
/** A tool call the policy refused; \`decision\` says which rule (effect, ruleId, reason, policyVersion). */
declare class PolicyDeniedError extends ToolCallError { readonly decision: { effect: string; ruleId: string | null; reason: string; policyVersion: string } }
${SHARED_TYPES.map(([name, type]) => `type ${name} = ${type};`).join('\n')}
`;

/**
 * What search_tools says once of the errors a call throws (their declarations are in SANDBOX_GLOBALS, which
 * programs are checked against), and of the properties many tools share, each only in an answer that declares
 * it. What the sandbox offers (console.log, no timers) is said by execute's description, which a model reads
 * before it searches.
 */
export const GLOBALS_NOTE = '// A failed call throws ToolCallError {tool, code, meta}; a refused one PolicyDeniedError {decision}.\n';

/** The notes on the shared properties (COMMON_DOCS), each said in an answer whose declarations have the member. */
const MEMBER_NOTES: ReadonlyArray<readonly [member: RegExp, note: string]> = [
  [/\bdata: unknown\b/, 'data: the upstream body, or what jq (JMESPath) projects of it: cast it.'],
  [/\bnextPage\??: /, 'nextPage: the next page, or null.'],
  [/\ballowlist\?: Allowlist\b/, 'allowlist: items the MCP_ALLOW_* lists left out.'],
];

/** The head of a search answer: the notes it needs, then the shared types its declarations use, declared as SANDBOX_GLOBALS declares them. */
export function answerHead(declared: readonly ToolDeclaration[]): string {
  const used = SHARED_TYPES.filter(([name]) => declared.some((d) => new RegExp(`\\b${name}\\b`).test(d.namespace)));
  const notes = MEMBER_NOTES.filter(([member]) => declared.some((d) => member.test(d.namespace))).map(([, note]) => note);
  return GLOBALS_NOTE + (notes.length === 0 ? '' : `// ${notes.join(' ')}\n`) + used.map(([name, type]) => `type ${name} = ${type};\n`).join('');
}

/** `github_list_workflow_runs` -> `GithubListWorkflowRuns`: the namespace of a tool's Input and Output types. */
export function namespaceName(toolName: string): string {
  return toolName
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** One tool's declarations: its namespace (Input, Output) and its method of `tools`, with the description. */
export interface ToolDeclaration {
  readonly name: string;
  readonly namespace: string;
  readonly method: string;
}

/**
 * A tool's TypeScript declarations, generated from the schemas `tools/list` serves: `Input` from `inputSchema`,
 * `Output` from `outputSchema` (a tool without one resolves with its text: `string`), descriptions as doc
 * comments.
 */
export function declareTool(tool: ToolDescriptor, options: DeclarationOptions = { allowlists: true }): ToolDeclaration {
  const space = namespaceName(tool.name);
  const unseen = new Set(options.allowlists ? RESOLVED_OUTPUTS : [...RESOLVED_OUTPUTS, ALLOWLIST_OUTPUT]);
  const input = typeOf(withoutProperties(tool.inputSchema, TEXT_ONLY_INPUTS), 'input', 1, STYLE);
  const output = tool.outputSchema === undefined ? 'string' : typeOf(withoutProperties(tool.outputSchema, unseen), 'output', 1, STYLE);
  const namespace = `declare namespace ${space} {\n  type Input = ${input};\n  type Output = ${output};\n}\n`;
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : [];
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
  const argsOptional = required.every((key) => properties[key]?.default !== undefined);
  // The description says what the title does, and more: the title only when there is no description.
  const about = withoutTextSentences(typeof tool.description === 'string' && tool.description !== '' ? tool.description : (tool.title ?? ''));
  const readOnly = (tool.annotations as { readOnlyHint?: boolean } | undefined)?.readOnlyHint === true;
  const doc = docComment(about + (readOnly ? '' : '\n(A write.)'), '  ');
  const method = `${doc}  ${tool.name}(args${argsOptional ? '?' : ''}: ${space}.Input): Promise<${space}.Output>;`;
  return { name: tool.name, namespace, method };
}

/** The whole declarations file a program is checked against: the globals, every namespace and one `tools` object. */
export function declarationsFile(tools: readonly ToolDeclaration[]): string {
  return [SANDBOX_GLOBALS, ...tools.map((t) => t.namespace), toolsObject(tools)].join('\n');
}

/** The `tools` object of some tools (what search_tools shows after their namespaces). */
export function toolsObject(tools: readonly ToolDeclaration[]): string {
  return `declare const tools: {\n${tools.map((t) => t.method).join('\n')}\n};\n`;
}

/**
 * A description without its sentences about the result's text (those naming a TEXT_ONLY_INPUTS argument, such
 * as "The text is the response body (TOON, or JSON with outputFormat "json")."): a program gets the value.
 */
function withoutTextSentences(description: string): string {
  const aboutText = new RegExp(`\\b(${[...TEXT_ONLY_INPUTS].join('|')})\\b`);
  return description
    .split('\n')
    .flatMap((line) => {
      const sentences = line.split(/(?<=\.)\s+/);
      const kept = sentences.filter((sentence) => !aboutText.test(sentence));
      return kept.length === 0 && sentences.length > 0 && line !== '' ? [] : [kept.join(' ')];
    })
    .join('\n');
}

function withoutProperties(schema: Record<string, unknown>, names: ReadonlySet<string>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties === undefined || !Object.keys(properties).some((k) => names.has(k))) return schema;
  const kept = Object.fromEntries(Object.entries(properties).filter(([k]) => !names.has(k)));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((k) => !names.has(k)) : schema.required;
  return { ...schema, properties: kept, ...(required === undefined ? {} : { required }) };
}

/**
 * Declarations made once per tool (its schemas do not change while the server runs), and the whole file for the
 * last set of tools asked for (a server's callers mostly reach the same tools).
 */
export class DeclarationCache {
  private readonly byTool = new Map<string, ToolDeclaration>();
  private last: { key: string; text: string } | undefined;

  constructor(private readonly options: DeclarationOptions = { allowlists: true }) {}

  of(tool: ToolDescriptor): ToolDeclaration {
    let declared = this.byTool.get(tool.name);
    if (declared === undefined) {
      declared = declareTool(tool, this.options);
      this.byTool.set(tool.name, declared);
    }
    return declared;
  }

  fileFor(tools: readonly ToolDescriptor[]): string {
    const key = tools.map((t) => t.name).join(',');
    if (this.last?.key !== key) this.last = { key, text: declarationsFile(tools.map((t) => this.of(t))) };
    return this.last.text;
  }
}
