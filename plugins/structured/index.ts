import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the structured plugin lands. */
@Plugin({ name: 'structured', version: '0.0.0' })
export class StructuredOutputPlugin implements DevtoolsPlugin {}
