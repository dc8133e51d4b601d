import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { DevtoolsPlugin } from '../../core/plugin/contract.js';
import type { ToolCatalogue } from '../../core/plugin/tool-catalogue.js';
import { Plugin } from '../../core/plugin/decorators.js';
import { TOKENS } from '../../core/tokens.js';
import { CodeModeSettingsSchema, readCodeModeSettings, type CodeModeSettings } from './code-mode-settings.js';
import { EXECUTE, SEARCH_TOOLS, type CodeModeDeps } from './code-tools.js';
import { DeclarationCache } from './declarations.js';
import { AllowlistSettings, anyAllowlistSet } from '../resource-names/allowlist-settings.js';
import type * as ExecuteModule from './execute-program.js';
import type { SandboxPool } from './sandbox/sandbox-pool.js';

/**
 * Code mode (docs/harness.md): `search_tools` shows the TypeScript declarations of the tools a caller reaches,
 * `execute` runs a program against them in a WebAssembly sandbox (QuickJS), each of its tool calls going through
 * the kernel like an MCP call (code-tools.ts). `--code-mode` serves these two and artifact_read only; the `code`
 * toolset may also be served beside the others. Each program gets a sandbox of its own.
 */
@Plugin({
  name: 'code',
  version: '1.0.0',
  settings: CodeModeSettingsSchema,
  toolsets: { code: { description: 'Code mode: search the tools as TypeScript, run a program that calls them (served with --code-mode).', default: false } },
  tools: [SEARCH_TOOLS, EXECUTE],
})
export class CodeModePlugin implements DevtoolsPlugin, CodeModeDeps {
  readonly config: CodeModeSettings;
  readonly declarations: DeclarationCache;
  private loaded: Promise<{ execute: typeof ExecuteModule; sandboxes: SandboxPool }> | undefined;

  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.ToolCatalogue) readonly catalogue: ToolCatalogue,
    @inject(TOKENS.ArtifactStore) readonly artifacts: ArtifactStore,
  ) {
    this.config = readCodeModeSettings(settings);
    this.declarations = new DeclarationCache({ allowlists: anyAllowlistSet(settings.of(AllowlistSettings)) });
  }

  runner(): Promise<{ execute: typeof ExecuteModule; sandboxes: SandboxPool }> {
    this.loaded ??= Promise.all([import('./execute-program.js'), import('./sandbox/sandbox-pool.js')]).then(([execute, pool]) => ({
      execute,
      sandboxes: new pool.SandboxPool(this.config.concurrency),
    }));
    return this.loaded;
  }

  async close(): Promise<void> {
    await (await this.loaded)?.sandboxes.close();
  }
}
