import { expect } from 'chai';
import Type from 'typebox';
import { defineTool } from '../../../core/plugin/define-tool.js';
import type { DevtoolsPlugin } from '../../../core/plugin/contract.js';
import { Plugin } from '../../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../../core/plugin/stages.js';
import type { UpstreamInterceptor } from '../../../core/plugin/tool-context.js';
import { placedOrder } from '../../../core/pipeline/placement.js';
import { startTestKernel, textOf } from '../../support/test-kernel.js';

const echo = defineTool({
  name: 'stamp_echo',
  title: 'Echo',
  description: 'Says what the stages around it did.',
  annotations: { readOnlyHint: true },
  input: Type.Object({}),
  handler: async (ctx) => ({ text: `seen: ${String((ctx.args as { seen?: string }).seen ?? '')}` }),
});

/** Two around-middleware of one stage, each adding its name to what the handler sees: the order is visible in the text. */
const stamp = (name: string, placement: Pick<StageMiddleware, 'before' | 'after'>): StageMiddleware => ({
  stage: 'policy',
  name,
  ...placement,
  run: (call, next) => next({ ...call, args: { ...call.args, seen: `${String(call.args.seen ?? '')}${name} ` } }),
});

@Plugin({ name: 'stamp', version: '1.0.0', tools: [echo] })
class StampPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    // Listed, and named, in the opposite order to the one declared: the declarations decide.
    return [stamp('a-second', { after: ['stamp/z-first'] }), stamp('z-first', {})];
  }
  interceptors(): UpstreamInterceptor[] {
    return [{ name: 'outermost', before: ['kernel/request-gate'], run: (request, _exchange, next) => next() }];
  }
}

@Plugin({ name: 'left', version: '1.0.0' })
class LeftPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    return [stamp('a', { before: ['right/b'] })];
  }
}

@Plugin({ name: 'right', version: '1.0.0' })
class RightPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    return [stamp('b', { before: ['left/a'] })];
  }
}

@Plugin({ name: 'lost', version: '1.0.0' })
class LostPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    return [stamp('wanderer', { after: ['policy/no-such-step'] })];
  }
}

async function startupError(plugins: Array<new () => object>): Promise<string> {
  const kernel = await startTestKernel({ plugins }).catch((error: Error) => error);
  if (kernel instanceof Error) return kernel.message;
  await kernel.close();
  throw new Error('expected start-up to fail');
}

describe('the call order: contributors place themselves with before/after (core/pipeline/placement.ts)', () => {
  it('runs a plugin’s middleware and interceptors where they declared, whatever order they were listed in', async () => {
    const kernel = await startTestKernel({ plugins: [StampPlugin] });
    try {
      expect(textOf(await kernel.call('stamp_echo', {}))).to.equal('seen: z-first a-second ');
      expect(kernel.kernel.pipelineOf('stamp_echo')).to.deep.include({
        interceptors: ['stamp/outermost', 'kernel/request-gate', 'kernel/call-observer', 'kernel/request-counter'],
      });
      expect(kernel.kernel.pipelineOf('stamp_echo')!.stages.filter((s) => s.startsWith('policy:'))).to.deep.equal([
        'policy:stamp/z-first',
        'policy:stamp/a-second',
      ]);
    } finally {
      await kernel.close();
    }
  });

  it('refuses to start when plugins place their contributions in a cycle, naming both plugins', async () => {
    expect(await startupError([LeftPlugin, RightPlugin])).to.equal(
      'The plugins "left" and "right" place their contributions to the policy stage in a cycle: left/a runs before right/b runs before left/a. Remove one of these before/after declarations.',
    );
  });

  it('refuses a place next to a contributor nobody contributes, naming the plugin and what is there', async () => {
    expect(await startupError([LostPlugin])).to.equal(
      'Plugin "lost" places "lost/wanderer" after "policy/no-such-step", which no loaded plugin contributes to the policy stage (nothing else runs there). Load the plugin that contributes it, or place it next to one that runs there.',
    );
  });

  it('gives one order however the contributions were collected, ties by name', () => {
    const items = [
      { plugin: 'zeta', name: 'z' },
      { plugin: 'alpha', name: 'late', after: ['zeta/z'] },
      { plugin: 'kernel', name: 'k', before: ['alpha/late'] },
      { plugin: 'beta', name: 'b' },
    ];
    const names = (list: typeof items): string[] => placedOrder(list, 'the test stage').map((p) => `${p.plugin}/${p.name}`);
    expect(names(items)).to.deep.equal(['beta/b', 'kernel/k', 'zeta/z', 'alpha/late']);
    expect(names([...items].reverse())).to.deep.equal(names(items));
  });

  it('refuses a name contributed twice to one place', () => {
    expect(() =>
      placedOrder(
        [
          { plugin: 'twin', name: 'a' },
          { plugin: 'twin', name: 'a' },
        ],
        'the render stage',
      ),
    ).to.throw('Plugin "twin" contributes "twin/a" to the render stage twice: give each contribution its own name.');
  });
});
