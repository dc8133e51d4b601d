import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the jira plugin lands. */
@Plugin({ name: 'jira', version: '0.0.0' })
export class JiraPlugin implements DevtoolsPlugin {}
