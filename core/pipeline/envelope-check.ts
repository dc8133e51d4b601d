import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { ToolError } from '../errors/tool-error.js';
import type { ToolSpec } from '../plugin/contract.js';
import type { Contribution } from './stage-chain.js';

const validators = new WeakMap<TSchema, Validator>();

function validatorOf(envelope: TSchema): Validator {
  let validator = validators.get(envelope);
  if (validator === undefined) validators.set(envelope, (validator = Compile(envelope)));
  return validator;
}

/**
 * The structured stage's last contributor: the structured value a tool produced (`{data, ...meta}` from its
 * handler's value and meta) must satisfy the envelope it declared. One that does not (`meta: {nextPage:
 * "cursor-abc"}` under PagedEnvelope) is a bug in the plugin: the call ends with `tool_failed`, naming the
 * plugin and tool and logged with what is wrong, and no structured content that breaks its own schema is
 * stored or sent (a client would refuse the whole result with -32602).
 */
export function envelopeCheck(): Contribution {
  return {
    stage: 'structured',
    plugin: 'kernel',
    name: 'envelope-check',
    appliesTo: (tool: ToolSpec) => tool.envelope !== undefined,
    run: async (ctx, next) => {
      const envelope = ctx.tool.spec.envelope;
      if (ctx.structured !== undefined && envelope !== undefined) {
        const validator = validatorOf(envelope);
        if (!validator.Check(ctx.structured)) {
          const problems = [...validator.Errors(ctx.structured)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
          const { plugin } = ctx.tool;
          const tool = ctx.tool.spec.name;
          ctx.logger.error({ plugin, tool, problems }, 'tool result does not satisfy its envelope');
          throw new ToolError(
            'tool_failed',
            `The ${plugin} plugin failed while running ${tool}: its result does not satisfy the tool's envelope (${problems.join('; ')}), so it was not sent. The value and meta a handler returns must match the envelope it declares.`,
          );
        }
      }
      await next();
    },
  };
}
