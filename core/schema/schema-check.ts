import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { TSchema } from 'typebox';

// Loaded and built on first use: Ajv and the 2020-12 meta-schema are the costliest part of start-up, and a
// server whose plugins are all built in never needs them (the test suite checks their schemas instead).
let metaValidator: Ajv2020 | undefined;

function newMetaValidator(): Ajv2020 {
  const { Ajv2020: Validator } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Validator({ strict: false, allErrors: true });
}

/**
 * Checks a tool's schema against the JSON Schema 2020-12 meta-schema, so a broken schema fails start-up with
 * its problem named, never at call time. TypeBox compiles any object without complaint.
 */
export function schemaProblems(schema: TSchema): string | undefined {
  if (schema === null || typeof schema !== 'object') return 'is not a JSON Schema object';
  metaValidator ??= newMetaValidator();
  if (metaValidator.validateSchema(schema) === true) return undefined;
  return metaValidator.errorsText(metaValidator.errors, { dataVar: 'schema' });
}
