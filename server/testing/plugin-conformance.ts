import type { Tool } from '@modelcontextprotocol/client';
import type { PluginClass } from '../../core/plugin/metadata.js';
import type { ConformanceCase, Projection } from './conformance-corpus.js';
import { MockUpstream } from './mock-upstream.js';
import { checkStructuredConformance, type ConformanceReport } from './structured-conformance.js';
import { startTestKernel, type TestKernel } from './test-kernel.js';

export interface PluginConformanceOptions {
  /** The plugin classes under test. */
  plugins: readonly PluginClass[];
  /** Their settings, pointing them at the loopback mock (its URL is given) with a placeholder credential. */
  env(mockUrl: string): Record<string, string>;
  /** Upstream answers served to every tool, each in turn (default: standardCorpus()). */
  corpus?: readonly ConformanceCase[];
  /** jq and outputFormat combinations tried for each answer (default: STANDARD_PROJECTIONS). */
  projections?: readonly Projection[];
  /** Arguments for a tool, when those derived from its input schema do not reach a successful call. */
  argsFor?(tool: Tool): Record<string, unknown> | undefined;
  /** Tools to leave out (by name). */
  skip?(tool: Tool): boolean;
}

/**
 * The structured-output conformance check for a plugin: starts it in-process with MCP_STRUCTURED_OUTPUT on,
 * against a loopback mock, connects the official SDK client over the in-memory transport, and runs
 * checkStructuredConformance: every tool that declares an envelope is called over the corpus and every
 * projection, and every result is checked by the SDK client and an independent JSON Schema 2020-12 validator.
 */
export async function checkPluginConformance(options: PluginConformanceOptions): Promise<ConformanceReport> {
  const mock = await MockUpstream.start();
  let kernel: TestKernel | undefined;
  try {
    kernel = await startTestKernel({
      plugins: options.plugins,
      env: { ...options.env(mock.url), MCP_STRUCTURED_OUTPUT: 'true' },
      // Every corpus answer is served at the same URLs: a cache would replay the first one to `cache: true` tools.
      configFile: { content: JSON.stringify({ disable: ['cache'] }) },
    });
    const { corpus, projections, argsFor, skip } = options;
    return await checkStructuredConformance({ client: await kernel.connect(), upstreams: [mock], corpus, projections, argsFor, skip });
  } finally {
    await kernel?.close();
    await mock.close();
  }
}

/** Throws, listing the broken promises, unless the report found tools to check and no failure. */
export function assertConforms(report: ConformanceReport): void {
  if (report.tools.length === 0) {
    throw new Error('No tool advertised an outputSchema: declare an `envelope` on the tools that have structured output.');
  }
  if (report.failures.length === 0) return;
  const shown = report.failures.slice(0, 20);
  const more = report.failures.length > shown.length ? `\n... and ${report.failures.length - shown.length} more` : '';
  throw new Error(`${report.failures.length} structured-output conformance failure(s):\n${shown.join('\n')}${more}`);
}
