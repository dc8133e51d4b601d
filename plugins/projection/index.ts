import { inject } from 'tsyringe';
import { Plugin } from '../../core/plugin/decorators.js';
import type { DevtoolsPlugin, ToolSpec } from '../../core/plugin/contract.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import { scrubJsonValue, type Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';

/** The JMESPath engine loads with the first call that has a jq: start-up and calls without one never need it. */
let jq: Promise<typeof import('./apply-jq.js')> | undefined;
const loadJq = (): Promise<typeof import('./apply-jq.js')> => (jq ??= import('./apply-jq.js'));

/** Tools whose input schema declares a `jq` argument get the projection stage. */
export function acceptsJq(tool: ToolSpec): boolean {
  return Object.prototype.hasOwnProperty.call((tool.input as { properties?: object }).properties ?? {}, 'jq');
}

/** The `project` stage: the optional `jq` JMESPath expression, applied to the parsed upstream body. */
@Plugin({ name: 'projection', version: '1.0.0' })
export class ProjectionPlugin implements DevtoolsPlugin {
  constructor(@inject(TOKENS.Scrubber) private readonly scrub: Scrub) {}

  middleware(): StageMiddleware[] {
    return [
      {
        stage: 'project',
        name: 'jmespath',
        appliesTo: acceptsJq,
        transform: async (call, produced) => {
          const { jq, outputFormat } = call.args;
          if (produced.output.text !== undefined || typeof jq !== 'string' || jq.trim() === '') return produced;
          const { applyJq } = await loadJq();
          // The handler's value was scrubbed; an expression can still put a secret together from parts
          // (`join('', [head, tail])`), so what it makes is scrubbed once more, for the text and the structured value alike.
          const failure = call.tool.spec.referenceJqError === true ? 'reference' : 'hints';
          const projected = applyJq(produced.value, jq, outputFormat === 'json' ? 'json' : 'toon', failure);
          return { ...produced, value: scrubJsonValue(projected, this.scrub) };
        },
      },
    ];
  }
}
