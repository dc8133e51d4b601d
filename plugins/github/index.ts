import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the github plugin lands. */
@Plugin({ name: 'github', version: '0.0.0' })
export class GithubPlugin implements DevtoolsPlugin {}
