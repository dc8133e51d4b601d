import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'tsyringe';
import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { RawResponseFiles } from './raw-response-files.js';
import { cutRendering } from './streamed-cut.js';
import { needsTruncation, truncateForModel } from './truncate-text.js';
import { isMadePieces, renderingPieces, type Rendering } from '../../core/result/rendering.js';

const TruncationSettings = Type.Object({
  MCP_RAW_RESPONSE_DIR: Type.String({
    default: join(tmpdir(), 'mcp-devtools'),
    description:
      'Folder for the full text of truncated results (owner-only files). One that is not private to this user (made by another, a symbolic link) is never written to: a private temporary folder is used instead.',
  }),
  MCP_RAW_RESPONSE_RETENTION_SECONDS: Type.Integer({ minimum: 60, default: 3600, description: 'How long the full text of a truncated result is kept.' }),
});

/** The `truncate` stage: text over 40,000 characters is cut for the model; the whole text goes to a file. */
@Plugin({ name: 'truncation', version: '1.0.0', settings: TruncationSettings })
export class TruncationPlugin implements DevtoolsPlugin {
  private readonly files: RawResponseFiles;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Logger) logger: Logger,
    @inject(TOKENS.Clock) clock: Clock,
    @inject(TOKENS.Scrubber) private readonly scrub: Scrub,
  ) {
    const { MCP_RAW_RESPONSE_DIR, MCP_RAW_RESPONSE_RETENTION_SECONDS } = settings.of(TruncationSettings);
    this.files = new RawResponseFiles(MCP_RAW_RESPONSE_DIR, MCP_RAW_RESPONSE_RETENTION_SECONDS * 1000, logger, () => clock.now());
  }

  async boot(): Promise<void> {
    await this.files.start();
  }

  close(): void {
    this.files.stop();
  }

  middleware(): StageMiddleware[] {
    return [
      {
        stage: 'truncate',
        name: 'model-text-limit',
        transform: async (_call, produced) => {
          const save = produced.output.saveTruncated !== false;
          const { rendering, text, ...rest } = produced;
          if (rendering !== undefined) return { ...rest, text: await this.cutPieces(rendering, save) };
          if (text !== undefined && needsTruncation(text)) return { ...rest, text: await this.cut(text, save) };
          return produced;
        },
      },
    ];
  }

  /**
   * A rendering in pieces: saved and cut as they are made (streamed-cut.ts). Only when a secret form shows in
   * the pieces is it made whole, to be scrubbed and cut as any text is. Pieces already made (an array) are
   * written in this tick (RawResponseFiles.open says why).
   */
  private async cutPieces(rendering: Rendering, save: boolean): Promise<string> {
    const cut = await cutRendering(renderingPieces(rendering), this.scrub, save ? () => this.files.open(isMadePieces(rendering)) : undefined);
    if ('text' in cut) return cut.text;
    const whole = [...renderingPieces(rendering)].join('');
    return needsTruncation(whole) ? this.cut(whole, save) : whole;
  }

  /**
   * The cut text, the whole one saved first. A method of its own so that the whole text is no longer referenced
   * once it returns: the later stages (structured output, spill) run without it in memory.
   */
  private async cut(whole: string, save: boolean): Promise<string> {
    // Scrubbed before the file is written and before the cut, which could leave a secret's head.
    const text = this.scrub(whole);
    const saved = save ? await this.files.save(text) : undefined;
    return truncateForModel(text, saved);
  }
}
