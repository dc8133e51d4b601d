import { createRequire } from 'node:module';
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';

type AjvModule = typeof import('@modelcontextprotocol/server/validators/ajv');

/**
 * A JSON Schema validator that loads the SDK's Ajv only the first time something asks it to validate. The SDK
 * server wants one for elicitation, which this server never sends, and its default module loads Ajv (some 8,000
 * lines) as it is imported: milliseconds of every start-up for nothing. The bundle replaces the SDK's default
 * with this class (rollup.config.mjs), so Ajv stays out of start-up; a third-party plugin's schemas still get it.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private real: jsonSchemaValidator | undefined;

  getValidator: jsonSchemaValidator['getValidator'] = (schema) => {
    if (this.real === undefined) {
      const ajv = createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as AjvModule;
      this.real = new ajv.AjvJsonSchemaValidator();
    }
    return this.real.getValidator(schema);
  };
}

/** One validator for every server instance (over Streamable HTTP there is one per request). */
export const sharedSchemaValidator: jsonSchemaValidator = new LazyJsonSchemaValidator();
