import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isErrorCode, type ErrorCode } from '../../core/errors/catalogue.js';
import { tooDeeplyNested } from '../../core/schema/argument-depth.js';
import type { JsonSchema } from './schema-arbitrary.js';

/**
 * The published input schemas as an independent validator (Ajv, with defaults applied as the server applies
 * them), plus the one documented limit no schema states (nesting depth): what it refuses, the server must
 * refuse with `invalid_arguments` before any request.
 */
export class SchemaOracle {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(tools: ReadonlyArray<{ name: string; inputSchema: unknown }>) {
    const ajv = new Ajv({ strict: false, useDefaults: true, allErrors: false });
    for (const tool of tools) this.validators.set(tool.name, ajv.compile(tool.inputSchema as JsonSchema));
  }

  /** Does the published schema accept these arguments? */
  accepts(tool: string, args: unknown): boolean {
    const validate = this.validators.get(tool);
    if (validate === undefined) throw new Error(`no schema for ${tool}`);
    if (tooDeeplyNested(args) !== undefined) return false;
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(args) ?? 'null');
    } catch {
      return false; // too deep for JSON.stringify: no client could have sent it as valid arguments
    }
    return validate(copy);
  }
}

/** The code of an error result (`Code: ...` line of the one error layout), or undefined for a success. */
export function errorCodeOf(result: CallToolResult): ErrorCode | undefined {
  if (result.isError !== true) return undefined;
  const code = /\nCode: (\w+)(\n|$)/.exec(textOf(result))?.[1];
  expect(code !== undefined && isErrorCode(code), `error result without a catalogued code:\n${textOf(result).slice(0, 500)}`).to.equal(true);
  return code as ErrorCode;
}

/**
 * A result a client can use: text content first, and for errors the documented layout with a catalogued code
 * other than `tool_failed` (which would mean a plugin crashed on this input).
 */
export function expectUsableResult(result: CallToolResult, context: string): ErrorCode | undefined {
  expect(Array.isArray(result.content) && result.content.length > 0, `${context}: no content`).to.equal(true);
  const text = textOf(result);
  // A success may be empty: TOON renders `{}` (a projection that selects nothing) as no text at all.
  if (result.isError !== true) return undefined;
  expect(text, context).to.match(/^Error: \S/);
  const code = errorCodeOf(result);
  expect(code, `${context}: a plugin crashed:\n${text.slice(0, 800)}`).not.to.equal('tool_failed');
  return code;
}

function textOf(result: CallToolResult): string {
  const first = result.content?.[0];
  if (first?.type !== 'text') throw new Error(`expected a text block first, got ${JSON.stringify(first)?.slice(0, 200)}`);
  return first.text;
}
