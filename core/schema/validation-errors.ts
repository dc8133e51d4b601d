import type { TLocalizedValidationError } from 'typebox/error';

/**
 * Turns TypeBox validation errors into lines a model can act on: each bad field, what was expected and what
 * was given. Alternatives of an enum-like union are folded into one "must be one of" line, listed from the
 * schema itself: TypeBox stops reporting after 8 errors, so a long union would otherwise list only some.
 */
export function describeValidationErrors(errors: readonly TLocalizedValidationError[], value: unknown, schema?: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (line: string): void => {
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  };
  for (const e of errors) {
    const field = fieldName(e.instancePath);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      for (const p of (params.requiredProperties as string[] | undefined) ?? []) add(`- ${join(field, p)}: is required`);
    } else if (e.keyword === 'additionalProperties') {
      for (const p of (params.additionalProperties as string[] | undefined) ?? []) add(`- ${join(field, p)}: is not a known argument`);
    } else if (e.keyword === 'boolean') {
      continue; // the additionalProperties error above already names the field
    } else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      // Type.Enum: one error carrying every value (a union of many literals overflows TypeBox's error cap).
      const options = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      add(`- ${field}: must be one of ${options} (got ${shown(pointer(value, e.instancePath))})`);
    } else if ((e.keyword === 'const' && e.schemaPath.includes('/anyOf/')) || e.keyword === 'anyOf') {
      const options = unionConstants(schema, e.schemaPath);
      if (options !== undefined)
        add(`- ${field}: must be one of ${options.map((v) => JSON.stringify(v)).join(', ')} (got ${shown(pointer(value, e.instancePath))})`);
      else if (e.keyword === 'anyOf') add(`- ${field || '(arguments)'}: ${e.message} (got ${shown(pointer(value, e.instancePath))})`);
    } else {
      add(`- ${field || '(arguments)'}: ${e.message} (got ${shown(pointer(value, e.instancePath))})`);
    }
  }
  return lines;
}

/** The constants of the union an error points into (`#/properties/s/anyOf/3` or `#/properties/s`), if it is one. */
function unionConstants(schema: unknown, schemaPath: string): unknown[] | undefined {
  const path = schemaPath.replace(/\/anyOf\/\d+$/, '');
  let node = schema;
  for (const part of path.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const anyOf = (node as { anyOf?: Array<{ const?: unknown }> } | undefined)?.anyOf;
  if (!Array.isArray(anyOf) || !anyOf.every((a) => a !== null && typeof a === 'object' && 'const' in a)) return undefined;
  return anyOf.map((a) => a.const);
}

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

function pointer(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text =
    typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v === 'object' ? 'an object' : String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
