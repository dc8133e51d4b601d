/**
 * A tool's free-form maps, found in its input schema: arguments whose keys the caller names and whose values
 * are plain strings, numbers or booleans (a schema of `type: object` with `patternProperties`, or with
 * `additionalProperties` given as a schema, and no fixed `properties`): `circleci_trigger_pipeline.parameters`,
 * `bb_run_pipeline.variables`, `github_dispatch_workflow.inputs`, a passthrough's `queryParams`. They are where
 * an agent puts its own settings, deploy secrets under innocent names among them, so webhook receivers are sent
 * their names and never their values (approval-event.ts); approvers see the values in the console. A request
 * body, whose fields the vendor defines, is not one (its values may be anything, not only scalars).
 */

type Schema = Record<string, unknown>;

/** Nesting of objects looked through for maps: typed tools keep their arguments flat. */
const MAX_DEPTH = 4;

/** Each schema's maps, found once: a tool's schema is fixed from start-up on. */
const known = new WeakMap<object, readonly string[]>();

/** The dotted paths of the free-form maps of a tool's input schema (`["parameters"]`), in the schema's order. */
export function freeFormMaps(input: unknown): readonly string[] {
  if (!isSchema(input)) return [];
  let found = known.get(input);
  if (found === undefined) {
    const paths: string[] = [];
    visit(input, [], paths);
    known.set(input, (found = paths));
  }
  return found;
}

function visit(schema: unknown, path: string[], found: string[]): void {
  if (!isSchema(schema) || path.length > MAX_DEPTH) return;
  if (path.length > 0 && isScalarMap(schema)) {
    found.push(path.join('.'));
    return;
  }
  const properties = schema.properties;
  if (!isSchema(properties)) return;
  for (const [name, child] of Object.entries(properties)) visit(child, [...path, name], found);
}

/** An object whose every value, under whatever key, is a scalar. */
function isScalarMap(schema: Schema): boolean {
  if (schema.type !== 'object' || schema.properties !== undefined) return false;
  const values = [...Object.values(isSchema(schema.patternProperties) ? schema.patternProperties : {})];
  if (isSchema(schema.additionalProperties)) values.push(schema.additionalProperties);
  return values.length > 0 && values.every(isScalar);
}

function isScalar(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.length > 0 && union.every(isScalar);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.length > 0 && types.every((t) => t === 'string' || t === 'number' || t === 'integer' || t === 'boolean');
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
