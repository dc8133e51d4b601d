import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { Logger } from '../../core/logging/logger.js';
import { isBigValue } from '../../core/pipeline/big-value.js';
import type { CallContext } from '../../core/plugin/call-context.js';
import type { StageMiddleware } from '../../core/plugin/stages.js';
import type { DevtoolsPlugin, ToolDescriptor, ToolSpec } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
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
      { stage: 'structured', name: 'structured-envelope', appliesTo: hasEnvelope, run: (ctx, next) => this.build(ctx, next) },
      { stage: 'spill', name: 'structured-size-bound', appliesTo: hasEnvelope, run: (ctx, next) => this.bound(ctx, next) },
    ];
  }

  /**
   * `{data, ...meta}` from the value after jq, for clients that may receive this tool's schema. Both were
   * scrubbed already (the handler's output by the kernel, a projection by the projection stage).
   */
  private async build(ctx: CallContext, next: () => Promise<void>): Promise<void> {
    const envelope = ctx.tool.spec.envelope!;
    if (clientAccepts(envelope, ctx.protocolVersion)) {
      const value = structuredValue(ctx, isObjectRooted(envelope));
      if (value !== undefined) ctx.structured = value as Record<string, unknown>;
    }
    await next();
  }

  private async bound(ctx: CallContext, next: () => Promise<void>): Promise<void> {
    if (ctx.structured !== undefined) {
      const save = async (serialized: string | Iterable<string>): Promise<string | null> => {
        try {
          return (await this.artifacts.save(ctx.principal, 'application/json', serialized)).artifactId;
        } catch (error) {
          // Still an incomplete result, never an error: the caller can narrow the request instead.
          this.logger.warn({ err: error, tool: ctx.tool.spec.name }, 'could not save an oversized structured value as an artifact');
          return null;
        }
      };
      const bounded = await applySizeBound(ctx.structured, isObjectRooted(ctx.tool.spec.envelope!), this.config.maxBytes, save, isBigValue(ctx));
      if (bounded.kind === 'withheld') {
        this.logger.warn(
          { tool: ctx.tool.spec.name, bytes: bounded.bytes, limitBytes: this.config.maxBytes },
          'structured value over the bound has a non-object schema with no room for incomplete; result is text only',
        );
        ctx.structured = undefined;
      } else {
        ctx.structured = bounded.value as Record<string, unknown>;
        if (bounded.kind === 'within') ctx.structuredBytes = { of: bounded.value, bytes: bounded.bytes };
      }
    }
    await next();
  }
}
