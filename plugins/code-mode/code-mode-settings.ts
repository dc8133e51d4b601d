import Type from 'typebox';
import type { Settings } from '../../core/config/settings.js';

/**
 * The limits of a program run by `execute`, each a setting (MCP_CODE_*). Out-of-range values fail start-up with
 * the range (the schema's bounds), so a limit in force is always one of sane size.
 */
export const CodeModeSettingsSchema = Type.Object({
  MCP_CODE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 900_000,
    default: 60_000,
    description: 'Wall time of one program, its tool calls included (execute).',
  }),
  MCP_CODE_CPU_MS: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 2_000,
    description: "CPU time a program's own code may spend in the sandbox, tool calls not counted.",
  }),
  MCP_CODE_MEMORY_MB: Type.Integer({ minimum: 8, maximum: 2_048, default: 64, description: "Memory of a program's sandbox (its heap), in MiB." }),
  MCP_CODE_OUTPUT_BYTES: Type.Integer({
    minimum: 256,
    // Under the 40,000 characters a result's text is cut at for the model (the truncation plugin).
    maximum: 32_768,
    default: 16_384,
    description: 'Bytes of printed output and returned value an execute result carries; the whole output then goes to an artifact.',
  }),
  MCP_CODE_MAX_CALLS: Type.Integer({ minimum: 1, maximum: 100_000, default: 1_000, description: 'Tool calls one program may make.' }),
  MCP_CODE_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 8,
    description: 'Programs run at once, each in a sandbox thread of its own (more wait for one); a program holds its thread while it awaits tool calls.',
  }),
  MCP_CODE_TYPE_CHECK: Type.Boolean({
    default: true,
    description: 'Type-check a program against the tool declarations before it runs (false: types are only stripped).',
  }),
});

/** The limits in force, in the units the sandbox uses. */
export interface ProgramLimits {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly memoryBytes: number;
  readonly outputBytes: number;
  readonly maxCalls: number;
}

export interface CodeModeSettings {
  readonly limits: ProgramLimits;
  readonly typeCheck: boolean;
  readonly concurrency: number;
}

export function readCodeModeSettings(settings: Settings): CodeModeSettings {
  const s = settings.of(CodeModeSettingsSchema);
  return {
    limits: {
      wallMs: s.MCP_CODE_TIMEOUT_MS,
      cpuMs: s.MCP_CODE_CPU_MS,
      memoryBytes: s.MCP_CODE_MEMORY_MB * 1024 * 1024,
      outputBytes: s.MCP_CODE_OUTPUT_BYTES,
      maxCalls: s.MCP_CODE_MAX_CALLS,
    },
    typeCheck: s.MCP_CODE_TYPE_CHECK,
    concurrency: s.MCP_CODE_CONCURRENCY,
  };
}
