type Schema = Record<string, unknown>;

// Keywords that give a schema a shape; a schema with none of them accepts any JSON value.
const SHAPING = ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'properties', 'items', 'patternProperties', 'additionalProperties', 'not'];
const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const CHILD_SCHEMAS = ['items', 'additionalProperties', 'not'];

/**
 * A copy of a tool schema that json-schema-to-typescript turns into the types the schema means:
 * - a schema with no shaping keyword (structured output's `data`, which jq may project to anything) becomes
 *   `unknown`; left alone, the library would type it as an object with an index signature;
 * - a record written as `patternProperties: {"^.*$": X}` (TypeBox's Record) becomes `additionalProperties: X`,
 *   the same constraint, without a comment about an unnamed pattern property.
 */
export function schemaForTypeScript(schema: Schema): Schema {
  const copy: Schema = { ...schema };
  const patterns = copy.patternProperties as Record<string, Schema> | undefined;
  const keys = patterns === undefined ? [] : Object.keys(patterns);
  if (keys.length === 1 && /^\^?\(?\.\*\)?\$?$/.test(keys[0]!) && (copy.additionalProperties === undefined || copy.additionalProperties === false)) {
    copy.additionalProperties = patterns![keys[0]!];
    delete copy.patternProperties;
  }
  if (!SHAPING.some((keyword) => keyword in copy)) copy.tsType = 'unknown';
  for (const key of CHILD_MAPS) {
    const children = copy[key] as Record<string, Schema> | undefined;
    if (isObject(children)) copy[key] = Object.fromEntries(Object.entries(children).map(([name, child]) => [name, isObject(child) ? schemaForTypeScript(child) : child]));
  }
  for (const key of CHILD_LISTS) {
    const children = copy[key];
    if (Array.isArray(children)) copy[key] = children.map((child: unknown) => (isObject(child) ? schemaForTypeScript(child) : child));
  }
  for (const key of CHILD_SCHEMAS) {
    const child = copy[key];
    if (isObject(child)) copy[key] = schemaForTypeScript(child);
  }
  return copy;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
