import type { ValidateFunction } from 'ajv/dist/2020.js';

/**
 * The static promises of an `outputSchema`: rooted at an object, `anyOf` never `oneOf`, no `$schema` (the SDK
 * clients validate with a draft-07 Ajv that fails on a 2020-12 one), `data` required, and not vacuous: an
 * empty object is rejected, and so is a valid value (`sample`) with any one required key removed.
 */
export function checkOutputSchema(schema: Record<string, unknown>, validate: ValidateFunction, sample: Record<string, unknown> | undefined): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('outputSchema is not rooted at an object');
  const text = JSON.stringify(schema);
  if (text.includes('"oneOf"')) problems.push('outputSchema uses oneOf (use anyOf)');
  if ('$schema' in schema) problems.push('outputSchema carries $schema, which draft-07 clients cannot resolve');
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (!required.includes('data')) problems.push('outputSchema does not require data');
  if (validate({})) problems.push('outputSchema accepts an empty object (vacuous)');
  if (sample !== undefined) {
    for (const key of required) {
      const { [key]: _removed, ...lacking } = sample;
      if (validate(lacking)) problems.push(`outputSchema accepts a value lacking the required key ${key}`);
    }
  }
  return problems;
}

interface PropertySchema {
  type?: unknown;
  default?: unknown;
  minimum?: number;
  minLength?: number;
  const?: unknown;
  anyOf?: PropertySchema[];
  enum?: unknown[];
}

/**
 * Arguments that satisfy a tool's input schema with plausible values: every required property gets its
 * default, its first allowed value, or a placeholder of its type (`path`-like names get a relative API path).
 */
export function schemaArguments(inputSchema: { properties?: Record<string, unknown>; required?: string[] }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of inputSchema.required ?? []) {
    const prop = (inputSchema.properties?.[name] ?? {}) as PropertySchema;
    args[name] = placeholder(name, prop);
  }
  return args;
}

function placeholder(name: string, prop: PropertySchema): unknown {
  if (prop.default !== undefined) return prop.default;
  if (prop.const !== undefined) return prop.const;
  if (prop.enum !== undefined && prop.enum.length > 0) return prop.enum[0];
  if (prop.anyOf !== undefined && prop.anyOf.length > 0) return placeholder(name, prop.anyOf[0]!);
  switch (prop.type) {
    case 'integer':
    case 'number':
      return Math.max(1, prop.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return /path|url/i.test(name) ? '/conformance/resource' : 'conformance';
  }
}
