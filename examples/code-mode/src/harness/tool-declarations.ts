import type { Tool } from '@modelcontextprotocol/client';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { SANDBOX_GLOBALS } from './sandbox-globals.js';
import { schemaForTypeScript } from './schema-for-typescript.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };

const COMPILE_OPTIONS = { bannerComment: '', format: true, unknownAny: true, additionalProperties: false };

/**
 * TypeScript declarations for every tool of `tools/list`, generated from its `inputSchema` and `outputSchema`
 * with json-schema-to-typescript: a namespace per tool (`GithubListWorkflowRuns.Input`, `.Output`) and one
 * `tools` object whose methods return the structured value, or `string` for a tool without an output schema
 * (its text). Each namespace keeps the names a schema generates apart from those of other tools.
 */
export async function generateDeclarations(tools: readonly Tool[]): Promise<string> {
  const namespaces: string[] = [];
  const methods: string[] = [];
  for (const tool of tools) {
    const space = namespaceName(tool.name);
    const input = await compile(forCallers(tool.inputSchema as Schema), 'Input', COMPILE_OPTIONS);
    const output = tool.outputSchema === undefined ? '' : await compile(withoutTitle(tool.outputSchema as Schema), 'Output', COMPILE_OPTIONS);
    namespaces.push(`${docComment(tool.title ?? tool.name, '')}declare namespace ${space} {\n${indent(input)}${output === '' ? '' : `\n${indent(output)}`}}\n`);
    const argsOptional = (tool.inputSchema.required ?? []).every((key) => hasDefault(tool.inputSchema as Schema, key));
    const returns = tool.outputSchema === undefined ? 'string' : `${space}.Output`;
    methods.push(`${docComment(tool.description ?? '', '  ')}  ${tool.name}(args${argsOptional ? '?' : ''}: ${space}.Input): Promise<${returns}>;`);
  }
  const toolsObject = [
    '/**',
    ' * The tools of the server. A method resolves with the structured value of the result (an incomplete value is',
    ' * read back from its artifact first, so `incomplete` never reaches the program), or with the text of a tool',
    ' * that has no output schema, and rejects with ToolCallError or one of its subclasses.',
    ' */',
    `declare const tools: {\n${methods.join('\n')}\n};`,
  ].join('\n');
  return [SANDBOX_GLOBALS, ...namespaces, toolsObject, ''].join('\n');
}

/** `github_list_workflow_runs` -> `GithubListWorkflowRuns`. */
export function namespaceName(toolName: string): string {
  return toolName
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The input schema as a caller sees it: a property with a default is optional whatever `required` says (the
 * server fills it in; TypeBox lists such properties as required).
 */
function forCallers(schema: Schema): JSONSchema {
  const required = (schema.required ?? []).filter((key) => !hasDefault(schema, key));
  return { ...(withoutTitle(schema) as Schema), required } as JSONSchema;
}

function hasDefault(schema: Schema, key: string): boolean {
  return schema.properties?.[key]?.default !== undefined;
}

// A root title would name the type instead of Input/Output.
function withoutTitle(schema: Schema): JSONSchema {
  const { title: _title, ...rest } = schemaForTypeScript(schema);
  return rest as JSONSchema;
}

function indent(code: string): string {
  return code
    .trim()
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n')
    .concat('\n');
}

function docComment(text: string, pad: string): string {
  if (text.trim() === '') return '';
  const lines = text.replaceAll('*/', '*\\/').trim().split('\n');
  return `${pad}/**\n${lines.map((line) => `${pad} * ${line}`.trimEnd()).join('\n')}\n${pad} */\n`;
}
