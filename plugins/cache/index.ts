import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the cache plugin lands. */
@Plugin({ name: 'cache', version: '0.0.0' })
export class CachePlugin implements DevtoolsPlugin {}
