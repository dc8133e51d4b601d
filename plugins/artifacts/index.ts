import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';

/** Placeholder until the artifacts plugin lands. */
@Plugin({ name: 'artifacts', version: '0.0.0' })
export class ArtifactsPlugin implements DevtoolsPlugin {}
