import type { HttpMethod } from '../plugin/upstream-types.js';
import type { ToolSpec } from '../plugin/contract.js';

/**
 * The method a tool's route sends, read at start-up by computing the route from arguments made from the input
 * schema (each required property's default, or the simplest value of its type). Routes are side-effect free
 * by contract, and every built-in one sends a fixed method. Undefined when the tool has no route or the route
 * cannot be computed from such arguments; the request gate still holds each request to its method at call time.
 */
export function routeMethod(spec: ToolSpec): HttpMethod | undefined {
  if (spec.route === undefined) return undefined;
  try {
    const method = spec.route(exampleOf(spec.input, 0) as never)?.method;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

type Schema = Record<string, unknown>;

/** A value of a JSON schema, as simple as it can be; undefined where none is obvious. */
function exampleOf(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  const schema = value as Schema;
  if ('default' in schema) return structuredClone(schema.default);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return exampleOf(alternatives[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Schema = {};
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      for (const [name, property] of Object.entries(properties)) {
        if (required.includes(name) || (property !== null && typeof property === 'object' && 'default' in property)) out[name] = exampleOf(property, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: typeof schema.minItems === 'number' ? Math.min(schema.minItems, 8) : 0 }, () => exampleOf(schema.items, depth + 1));
    case 'string':
      return '1'.repeat(typeof schema.minLength === 'number' ? Math.max(1, Math.min(schema.minLength, 64)) : 1);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}
