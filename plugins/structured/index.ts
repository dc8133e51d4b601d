import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import { isBigValue } from '../../core/pipeline/answer.js';
import type { Call, Produced } from '../../core/plugin/call.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { DevtoolsPlugin, ToolDescriptor, ToolSpec } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { noProgress } from '../../core/plugin/tool-context.js';
import { reportedPieces } from '../../core/vendor/reported-pieces.js';
import { outputSchemaOf } from './output-schema.js';
import { clientAccepts, isObjectRooted } from './protocol-gate.js';
import { applySizeBound } from './size-bound.js';
import { readStructuredSettings, StructuredSettingsSchema, type StructuredSettings } from './structured-settings.js';
import { structuredValue } from './structured-value.js';

const hasEnvelope = (tool: ToolSpec): boolean => tool.envelope !== undefined;

/**
 * Structured output (docs/structured-output.md). With MCP_STRUCTURED_OUTPUT on, tools that declare an envelope
 * advertise it as `outputSchema`, and the `structured` and `spill` stages give each successful result of theirs
 * `structuredContent`, bounded by MCP_STRUCTURED_MAX_BYTES with the full value in an artifact. With it off the
 * plugin contributes nothing, so tools/list and every result are exactly those of a server without it.
 */
@Plugin({ name: 'structured', version: '1.0.0', settings: StructuredSettingsSchema })
export class StructuredOutputPlugin implements DevtoolsPlugin {
  private readonly config: StructuredSettings;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.ArtifactStore) private readonly artifacts: ArtifactStore,
  ) {
    this.config = readStructuredSettings(settings, logger);
  }

  describeTool(tool: ToolSpec, descriptor: ToolDescriptor, protocolVersion: string | undefined): ToolDescriptor {
    if (!this.config.enabled || tool.envelope === undefined || !clientAccepts(tool.envelope, protocolVersion)) return descriptor;
    return { ...descriptor, outputSchema: outputSchemaOf(tool.envelope) };
  }

  middleware(): StageMiddleware[] {
    if (!this.config.enabled) return [];
    return [
      {
        stage: 'structured',
        name: 'structured-envelope',
        before: ['kernel/envelope-check'],
        appliesTo: hasEnvelope,
        transform: (call, produced) => this.build(call, produced),
      },
      { stage: 'spill', name: 'structured-size-bound', appliesTo: hasEnvelope, transform: (call, produced) => this.bound(call, produced) },
    ];
  }

  /**
   * `{data, ...meta}` from the value after jq, for clients that may receive this tool's schema. Both were
   * scrubbed already (the handler's output by the kernel, a projection by the projection stage).
   */
  private build(call: Call, produced: Produced): Produced {
    const envelope = call.tool.spec.envelope!;
    if (!clientAccepts(envelope, call.protocolVersion)) return produced;
    const value = structuredValue(produced, isObjectRooted(envelope));
    return value === undefined ? produced : { ...produced, structured: value as Record<string, unknown> };
  }

  private async bound(call: Call, produced: Produced): Promise<Produced> {
    const { structured, structuredBytes: _uncounted, ...rest } = produced;
    if (structured === undefined) return produced;
    const save = async (serialized: string | Iterable<string>): Promise<string | null> => {
      try {
        const reported = reportedPieces(serialized, call.progress ?? noProgress, 'saving the whole structured value as an artifact');
        return (await this.artifacts.save(call.principal, 'application/json', reported)).artifactId;
      } catch (error) {
        // Still an incomplete result, never an error: the caller can narrow the request instead.
        this.logger.warn({ err: error, tool: call.tool.spec.name }, 'could not save an oversized structured value as an artifact');
        return null;
      }
    };
    const bounded = await applySizeBound(structured, isObjectRooted(call.tool.spec.envelope!), this.config.maxBytes, save, isBigValue(call));
    if (bounded.kind === 'withheld') {
      this.logger.warn(
        { tool: call.tool.spec.name, bytes: bounded.bytes, limitBytes: this.config.maxBytes },
        'structured value over the bound has a non-object schema with no room for incomplete; result is text only',
      );
      return rest;
    }
    const value = bounded.value as Record<string, unknown>;
    return bounded.kind === 'within' ? { ...rest, structured: value, structuredBytes: bounded.bytes } : { ...rest, structured: value };
  }
}
