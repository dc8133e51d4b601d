import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the circleci plugin lands. */
@Plugin({ name: 'circleci', version: '0.0.0' })
export class CircleciPlugin implements DevtoolsPlugin {}
