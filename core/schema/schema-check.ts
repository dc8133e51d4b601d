import { Ajv2020 } from 'ajv/dist/2020.js';
import type { TSchema } from 'typebox';

const metaValidator = new Ajv2020({ strict: false, allErrors: true });

/**
 * Checks a tool's schema against the JSON Schema 2020-12 meta-schema, so a broken schema fails start-up with
 * its problem named, never at call time. TypeBox compiles any object without complaint.
 */
export function schemaProblems(schema: TSchema): string | undefined {
  if (schema === null || typeof schema !== 'object') return 'is not a JSON Schema object';
  if (metaValidator.validateSchema(schema) === true) return undefined;
  return metaValidator.errorsText(metaValidator.errors, { dataVar: 'schema' });
}
