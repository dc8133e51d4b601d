import fc from 'fast-check';
import { deepValue, hostileString } from './hostile-strings.js';

/** The subset of JSON Schema that tools/list publishes (TypeBox output). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

export interface SchemaArbitraryOptions {
  /** Strings for a named property (paths, jq expressions); undefined: derived from the schema. */
  stringFor?(property: string): fc.Arbitrary<string> | undefined;
}

/** Values the schema accepts, with hostile content wherever it allows any string. */
export function validValue(schema: JsonSchema, options: SchemaArbitraryOptions = {}, property = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((s) => validValue(s, options, property)));
  switch (schema.type) {
    case 'object':
      return validObject(schema, options);
    case 'string': {
      const named = options.stringFor?.(property);
      if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern));
      const base = named ?? hostileString();
      return schema.minLength ? base.filter((s) => s.length >= schema.minLength!) : base;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}, options, property), { maxLength: 5 });
    default:
      // `{}` (a request body's values): any JSON, sometimes hostile or very deep.
      return fc.oneof(
        { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
        { weight: 1, arbitrary: deepValue() },
        { weight: 1, arbitrary: hostileString() },
      );
  }
}

function validObject(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  if (Object.keys(properties).length === 0 && schema.patternProperties !== undefined) {
    // A record (queryParams, body): hostile keys too, as long as the key pattern takes them.
    const [pattern, values] = Object.entries(schema.patternProperties)[0]!;
    const key = hostileString().filter((k) => new RegExp(pattern).test(k) && k.length < 200);
    return fc.dictionary(key, validValue(values, options), { maxKeys: 6 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = validValue(sub, options, name);
  // Required properties with a default may be left out: the server fills them in.
  const requiredKeys = [...required].filter((k) => properties[k]?.default === undefined);
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/** What makes one argument object invalid, and how. */
export type Mutation =
  | { kind: 'wrong-type'; property: string; value: unknown }
  | { kind: 'missing-required'; property: string }
  | { kind: 'unknown-property'; property: string; value: unknown }
  | { kind: 'not-an-object'; value: unknown }
  | { kind: 'out-of-range'; property: string; value: unknown };

/** Argument objects with one thing wrong: wrong types, missing or unknown properties, values out of range. */
export function mutatedArgs(schema: JsonSchema, options: SchemaArbitraryOptions = {}): fc.Arbitrary<{ args: unknown; mutation: Mutation }> {
  const properties = Object.keys(schema.properties ?? {});
  const mandatory = (schema.required ?? []).filter((k) => schema.properties?.[k]?.default === undefined);
  const wrongValue = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    hostileString(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    deepValue(),
  );
  const mutations: Array<fc.Arbitrary<Mutation>> = [
    fc.record({
      kind: fc.constant('unknown-property' as const),
      property: fc
        .oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'PATH', 'Path', 'path '), hostileString())
        .filter((p) => !properties.includes(p)),
      value: wrongValue,
    }),
    fc.record({
      kind: fc.constant('not-an-object' as const),
      value: fc.oneof(fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 2 })), hostileString(), fc.integer()),
    }),
  ];
  if (properties.length > 0)
    mutations.push(fc.record({ kind: fc.constant('wrong-type' as const), property: fc.constantFrom(...properties), value: wrongValue }));
  if (mandatory.length > 0) mutations.push(fc.record({ kind: fc.constant('missing-required' as const), property: fc.constantFrom(...mandatory) }));
  const numeric = properties.filter((p) => ['integer', 'number'].includes(schema.properties![p]!.type ?? ''));
  if (numeric.length > 0) {
    const outOfRange = fc.constantFrom(-1, 0, 1.5, -0.5, 2 ** 53, 1e21, -1e21, Number.MAX_VALUE, 1e-7);
    mutations.push(fc.record({ kind: fc.constant('out-of-range' as const), property: fc.constantFrom(...numeric), value: outOfRange }));
  }
  return fc.tuple(validObject(schema, options), fc.oneof(...mutations)).map(([valid, mutation]) => ({ args: apply(valid, mutation), mutation }));
}

function apply(valid: Record<string, unknown>, mutation: Mutation): unknown {
  const args: Record<string, unknown> = { ...valid };
  switch (mutation.kind) {
    case 'not-an-object':
      return mutation.value;
    case 'missing-required':
      delete args[mutation.property];
      return args;
    default:
      // defineProperty: a "__proto__" argument is an own key, as JSON.parse makes it on the wire.
      Object.defineProperty(args, mutation.property, { value: mutation.value, enumerable: true, writable: true, configurable: true });
      return args;
  }
}
