type Schema = Record<string, unknown>;

// Keywords that give a schema a shape; a schema with none of them accepts any JSON value (structured output's
// `data`, which a jq projection may turn into anything): `unknown`, so a program states the shape it asked for.
const SHAPING = ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'properties', 'items', 'patternProperties', 'additionalProperties'];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** How a schema is read: as arguments a caller writes (a property with a default may be left out) or as a result. */
export type SchemaSide = 'input' | 'output';

/**
 * The TypeScript type a JSON Schema (as TypeBox writes them: the tools' input and output schemas) stands for,
 * with each property's description as a doc comment. Validation-only keywords (pattern, minimum, formats) have
 * no type and are left to the server, which checks every call's arguments anyway.
 */
/**
 * What a declaration leaves to words said once: doc comments of `commonDocs` (the tool's own properties only:
 * jq, paging, the envelope's data, which search_tools explains in one line for all tools), and objects written
 * as the name of a shared type declared once (`shared`: rendered type -> name, e.g. provenance's).
 */
export interface TypeStyle {
  readonly commonDocs?: ReadonlySet<string>;
  readonly shared?: ReadonlyMap<string, string>;
}

export function typeOf(schema: unknown, side: SchemaSide, depth = 0, style: TypeStyle = {}): string {
  if (!isSchema(schema)) return schema === false ? 'never' : 'unknown';
  if (!SHAPING.some((keyword) => keyword in schema)) return 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const members = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(members)) return union(members.map((m) => typeOf(m, side, depth, style)));
  if (Array.isArray(schema.allOf)) return schema.allOf.map((m) => wrap(typeOf(m, side, depth, style))).join(' & ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return union(types.map((type) => typeOfKind(type, schema, side, depth, style)));
}

function typeOfKind(type: string | undefined, schema: Schema, side: SchemaSide, depth: number, style: TypeStyle): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, side, depth, style);
    case 'object':
    case undefined:
      return 'properties' in schema || 'patternProperties' in schema || 'additionalProperties' in schema ? objectType(schema, side, depth, style) : 'unknown';
    default:
      return 'unknown';
  }
}

function arrayType(schema: Schema, side: SchemaSide, depth: number, style: TypeStyle): string {
  if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((item) => typeOf(item, side, depth, style)).join(', ')}]`;
  return schema.items === undefined ? 'unknown[]' : `Array<${typeOf(schema.items, side, depth, style)}>`;
}

function objectType(schema: Schema, side: SchemaSide, depth: number, style: TypeStyle): string {
  const properties = (isSchema(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const pad = '  '.repeat(depth + 1);
  const members: Array<{ doc: string; text: string }> = [];
  for (const [name, property] of Object.entries(properties)) {
    // TypeBox lists a property with a default as required; the server fills it in, so a caller may leave it out.
    const optional = !required.has(name) || (side === 'input' && isSchema(property) && property.default !== undefined);
    const common = depth === 1 && style.commonDocs?.has(name) === true;
    const description = !common && isSchema(property) && typeof property.description === 'string' ? property.description : '';
    const type = typeOf(property, side, depth + 1, style);
    members.push({
      doc: description.trim(),
      text: `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${optional ? '?' : ''}: ${style.shared?.get(type) ?? type}`,
    });
  }
  const rest = restType(schema, side, depth, style);
  if (rest !== undefined) members.push({ doc: '', text: `[key: string]: ${rest}` });
  if (members.length === 0) return 'Record<string, never>';
  // Without doc comments, or nested in another object, an object takes one line: the same type reads the same
  // at any depth, and costs fewer tokens than one member a line.
  if (depth > 1 || members.every((m) => m.doc === '')) {
    return `{ ${members.map((m) => `${m.doc === '' ? '' : `/** ${m.doc.replaceAll('*/', '*\\/').replaceAll('\n', ' ')} */ `}${m.text}`).join('; ')} }`;
  }
  return `{\n${members.map((m) => `${docComment(m.doc, pad)}${pad}${m.text};`).join('\n')}\n${'  '.repeat(depth)}}`;
}

/** The type of the properties an object may have beyond those it names (TypeBox's Record is a patternProperties). */
function restType(schema: Schema, side: SchemaSide, depth: number, style: TypeStyle): string | undefined {
  const patterns = isSchema(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
  const extra = schema.additionalProperties;
  const named = isSchema(schema.properties) && Object.keys(schema.properties).length > 0;
  const types = patterns.map((p) => typeOf(p, side, depth + 1, style));
  if (isSchema(extra)) types.push(typeOf(extra, side, depth + 1, style));
  // An open object with no properties named is a free-form record; one with named properties is typed by them.
  else if (extra !== false && types.length === 0 && !named) types.push('unknown');
  if (types.length === 0) return undefined;
  // Beside named properties, an index signature must admit each of their types: unknown does.
  return named ? 'unknown' : union(types);
}

function literal(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 1 ? unique[0]! : unique.map(wrap).join(' | ');
}

// A union or intersection inside another, or a function type, needs parentheses; everything we write otherwise does not.
function wrap(type: string): string {
  return /^[^{[<]*[|&]/.test(type) ? `(${type})` : type;
}

/** A doc comment of `text` at `pad`, or nothing for an empty text. */
export function docComment(text: string, pad: string): string {
  if (text.trim() === '') return '';
  const lines = text.replaceAll('*/', '*\\/').trim().split('\n');
  if (lines.length === 1) return `${pad}/** ${lines[0]} */\n`;
  return `${pad}/**\n${lines.map((line) => `${pad} * ${line}`.trimEnd()).join('\n')}\n${pad} */\n`;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
