import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the bitbucket plugin lands. */
@Plugin({ name: 'bitbucket', version: '0.0.0' })
export class BitbucketPlugin implements DevtoolsPlugin {}
