/**
 * The schema checks strict MCP clients and checkers apply to a tool's schemas, as the MCP Inspector's `--strict`
 * (modelcontextprotocol/inspector#1005) describes them from what Claude Code refuses: a schema (every one nested in
 * properties, items, compositions...) is an object, never a bare `true`/`false`; its `type` is one name, never a
 * list (`["null", "boolean"]`); and it says what it holds: a `type`, or a composition (`anyOf`, `oneOf`,
 * `allOf`), a `$ref`, an `enum` or a `const`. An empty schema `{}` (TypeBox's Type.Unknown()) says nothing and is
 * refused. The root of an input schema is an object.
 */
type Schema = Record<string, unknown>;

const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const CHILD_ONE = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'];
const SAYS_WHAT = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const'];

/** Every problem of one schema, each as `path: what is wrong`. */
export function strictSchemaProblems(schema: unknown, path = ''): string[] {
  if (typeof schema === 'boolean') return [`${path || '(root)'}: a boolean schema (${String(schema)}); give a typed schema`];
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [`${path || '(root)'}: not a schema`];
  const s = schema as Schema;
  const problems: string[] = [];
  if (Array.isArray(s.type)) problems.push(`${path || '(root)'}: type is a list (${JSON.stringify(s.type)}); use anyOf`);
  if (!SAYS_WHAT.some((key) => key in s)) problems.push(`${path || '(root)'}: no type (${JSON.stringify(s)})`);
  for (const key of CHILD_MAPS) {
    const map = s[key];
    if (map !== null && typeof map === 'object')
      for (const [name, child] of Object.entries(map)) problems.push(...strictSchemaProblems(child, `${path}/${key}/${name}`));
  }
  for (const key of CHILD_LISTS) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((child, i) => problems.push(...strictSchemaProblems(child, `${path}/${key}/${i}`)));
  }
  for (const key of CHILD_ONE) {
    const child = s[key];
    // additionalProperties: false (or true) is a switch, not a schema of values.
    if (key === 'additionalProperties' && typeof child === 'boolean') continue;
    if (child !== undefined) problems.push(...strictSchemaProblems(child, `${path}/${key}`));
  }
  return problems;
}

/** The problems of a tool's input schema: strict, and rooted at an object. */
export function strictInputSchemaProblems(inputSchema: unknown): string[] {
  const rootType = (inputSchema as Schema | null)?.type;
  return [...(rootType === 'object' ? [] : [`(root): type is ${JSON.stringify(rootType)}, not "object"`]), ...strictSchemaProblems(inputSchema)];
}
