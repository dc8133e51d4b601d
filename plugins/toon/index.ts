import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import { isPlainContainer } from '../../core/result/json-pieces.js';
import { hasLargeText, isBigValue, renderedValue } from '../../core/pipeline/answer.js';
import { renderPieces } from './render.js';

/** The `render` stage: TOON (default) or JSON text from the projected value, per the `outputFormat` argument. */
@Plugin({ name: 'toon', version: '1.0.0' })
export class ToonPlugin implements DevtoolsPlugin {
  middleware(): StageMiddleware[] {
    return [
      {
        stage: 'render',
        name: 'toon-or-json',
        transform: (call, produced) => {
          if (produced.output.text !== undefined) return { ...produced, text: produced.output.text };
          const value = renderedValue(produced);
          const { outputFormat } = call.args;
          // A big value's JSON is left for the truncate stage to write out in pieces: it is never whole.
          if (outputFormat === 'json' && isBigValue(call) && isPlainContainer(value)) return { ...produced, rendering: { prettyJsonOf: value } };
          // A rendering of several pieces is never made one string here: the truncate stage cuts and saves it
          // piece by piece (a whole text of a large page is the costly kind of string, fast-encode.ts).
          const pieces = renderPieces(value, outputFormat, hasLargeText(call));
          return pieces.length === 1 ? { ...produced, text: pieces[0] } : { ...produced, rendering: pieces };
        },
      },
    ];
  }
}
