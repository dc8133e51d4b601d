// What the bundle gives the SDK server for its `@modelcontextprotocol/server/_shims` import (rollup.config.mjs):
// the Node shims, with the default JSON Schema validator loading Ajv on first use instead of at import.
import process from 'node:process';
import { LazyJsonSchemaValidator } from './lazy-schema-validator.js';

export { LazyJsonSchemaValidator as DefaultJsonSchemaValidator, process };
