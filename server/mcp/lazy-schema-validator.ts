import { createRequire } from 'node:module';
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';

type AjvModule = typeof import('@modelcontextprotocol/server/validators/ajv');

/**
 * A JSON Schema validator that makes the SDK's Ajv validator only the first time something asks it to validate.
 * The SDK server wants one for elicitation, which this server never sends, and makes its default (an Ajv instance)
 * when given none: milliseconds of every start-up for nothing. Ajv's code itself is still in the start-up chunk:
 * the SDK's server module imports its default validator's module, and no build step rewrites a dependency.
 * A third-party plugin's schemas still get Ajv.
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
