import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { ToolError } from '../errors/tool-error.js';
import type { ToolSpec } from '../plugin/contract.js';
import type { Produced } from '../plugin/call.js';
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
 * stored or sent (a client would refuse the whole result with -32602). With structured output off the same
 * value is made and checked, so a plugin's bug shows whatever the server's settings (the text renders the meta).
 */
export function envelopeCheck(): Contribution {
  return {
    stage: 'structured',
    plugin: 'kernel',
    name: 'envelope-check',
    appliesTo: (tool: ToolSpec) => tool.envelope !== undefined,
    transform: (call, produced) => {
      const envelope = call.tool.spec.envelope;
      const structured = produced.structured ?? checkedValue(produced, envelope);
      if (structured !== undefined && envelope !== undefined) {
        const validator = validatorOf(envelope);
        if (!validator.Check(structured)) {
          const problems = [...validator.Errors(structured)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
          const { plugin } = call.tool;
          const tool = call.tool.spec.name;
          call.logger.error({ plugin, tool, problems }, 'tool result does not satisfy its envelope');
          throw new ToolError(
            'tool_failed',
            `The ${plugin} plugin failed while running ${tool}: its result does not satisfy the tool's envelope (${problems.join('; ')}), so it was not sent. The value and meta a handler returns must match the envelope it declares.`,
          );
        }
      }
      return produced;
    },
  };
}

/**
 * What the structured stage would have made of the handler's output, for checking when it did not run
 * (structured output off): `{data, ...meta}`, or the value itself under a non-object-rooted envelope. A
 * handler that returned final text and no meta has nothing to check.
 */
function checkedValue(produced: Produced, envelope: TSchema | undefined): unknown {
  const { value, meta } = produced.output;
  if (envelope === undefined || (value === undefined && meta === undefined)) return undefined;
  if ((envelope as { type?: unknown }).type !== 'object') return value;
  const defined = Object.fromEntries(Object.entries(meta ?? {}).filter(([, v]) => v !== undefined));
  return { data: produced.value ?? null, ...defined };
}
