import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import { hasLargeText, isBigValue } from '../../core/pipeline/big-value.js';
import { isPlainContainer } from '../../core/result/json-pieces.js';
import { renderedValue } from '../../core/result/tool-result.js';
import { renderPieces } from './render.js';

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
            if (isPlainContainer(value)) ctx.rendering = { prettyJsonOf: value };
          }
          if (ctx.rendering === undefined && ctx.output?.text !== undefined) ctx.text = ctx.output.text;
          else if (ctx.rendering === undefined) {
            // A rendering of several pieces is never made one string here: the truncate stage cuts and saves it
            // piece by piece (a whole text of a large page is the costly kind of string, fast-encode.ts).
            const pieces = renderPieces(renderedValue(ctx), ctx.args.outputFormat, hasLargeText(ctx));
            if (pieces.length === 1) ctx.text = pieces[0];
            else ctx.rendering = pieces;
          }
          await next();
        },
      },
    ];
  }
}
