import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the policy plugin lands. */
@Plugin({ name: 'policy', version: '0.0.0' })
export class PolicyPlugin implements DevtoolsPlugin {}
