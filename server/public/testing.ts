/**
 * `mcp-devtools/testing`: the test kit for plugins. Start a kernel in-process with your plugin classes, point
 * them at a loopback mock of the vendor's API, check every structured result with the official SDK client,
 * and run the real server (this package's CLI) over stdio with a config file that loads your plugin by path.
 */
import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { connectStdio as connectStdioServer, type StdioServerOptions, type StdioSession } from '../testing/stdio-server.js';

export { startTestKernel, textOf, type TestKernel, type TestKernelOptions } from '../testing/test-kernel.js';
export { connectInMemory } from '../testing/in-memory-client.js';
export { NEGOTIATE_LATEST, type VersionNegotiation } from '../testing/sdk-client.js';
export { MockUpstream, type MockHandler, type MockReply, type RecordedRequest } from '../testing/mock-upstream.js';
export { assertConforms, checkPluginConformance, type PluginConformanceOptions } from '../testing/plugin-conformance.js';
export {
  checkStructuredConformance,
  type ConformanceClient,
  type ConformanceOptions,
  type ConformanceReport,
  type ToolTally,
} from '../testing/structured-conformance.js';
export { standardCorpus, STANDARD_PROJECTIONS, type ConformanceCase, type Projection } from '../testing/conformance-corpus.js';
export { isolatedEnv, type StdioServerOptions, type StdioSession } from '../testing/stdio-server.js';
export { ScratchDirs } from '../testing/scratch-dirs.js';
export { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';
export type { PluginClass } from '../../core/plugin/metadata.js';
export type { ToolDefinition } from '../../core/plugin/contract.js';
export type { Kernel } from '../../core/kernel/kernel.js';

/** This package's command-line entry point (`dist/cli.js`), the server `connectStdio` runs. */
export const CLI_PATH: string = fileURLToPath(new URL('./cli.js', import.meta.url));

/**
 * The official SDK client talking over stdio to this package's server, started as a child process with
 * exactly the given settings as its environment: the end-to-end check that a config file loads a plugin.
 */
export function connectStdio(options: Partial<StdioServerOptions> = {}): Promise<StdioSession> {
  return connectStdioServer({ cliPath: CLI_PATH, ...options });
}
