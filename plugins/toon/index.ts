import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/pipeline/stages.js';
import { renderedValue } from '../../core/result/tool-result.js';
import { renderValue } from './render.js';

/** The `render` stage: TOON (default) or JSON text from the projected value, per the `outputFormat` argument. */
@Plugin({ name: 'toon', version: '1.0.0' })
export class ToonPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    return [
      {
        stage: 'render',
        name: 'toon-or-json',
        run: async (ctx, next) => {
          ctx.text = ctx.output?.text ?? renderValue(renderedValue(ctx), ctx.args.outputFormat);
          await next();
        },
      },
    ];
  }
}
