import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/pipeline/stages.js';
import { isBigValue } from '../../core/pipeline/big-value.js';
import { isPlainContainer, jsonPieces } from '../../core/result/json-pieces.js';
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
          if (ctx.output?.text === undefined && ctx.args.outputFormat === 'json' && isBigValue(ctx)) {
            const value = renderedValue(ctx);
            // A big value's JSON is left for the truncate stage to write out in pieces: it is never whole.
            if (isPlainContainer(value)) ctx.rendering = () => jsonPieces(value, 2);
          }
          if (ctx.rendering === undefined) ctx.text = ctx.output?.text ?? renderValue(renderedValue(ctx), ctx.args.outputFormat);
          await next();
        },
      },
    ];
  }
}
