import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the confluence plugin lands. */
@Plugin({ name: 'confluence', version: '0.0.0' })
export class ConfluencePlugin implements DevtoolsPlugin {}
