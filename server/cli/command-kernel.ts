import { resolveConfig } from '../bootstrap/resolve-config.js';
import { startKernel, type StartOptions, type Started } from '../bootstrap/start-kernel.js';
import { logDestination, NO_LOG_LINES } from './log-output.js';

/** `--verbose` of the commands that answer a person. */
export interface VerboseOption {
  verbose?: boolean;
}

/**
 * The kernel of a command that answers a person (`tools`, `call`, `policy explain`): its log lines (kernel
 * started, the call's line) are for operators of a server, so they are left out unless `--verbose` asks for
 * them (then as LOG_FORMAT says). What the configuration warns about is still said, as plain `warning:` lines,
 * as `config` says it.
 */
export async function startCommandKernel(invocation: StartOptions, options: VerboseOption): Promise<Started> {
  const resolved = await resolveConfig(invocation);
  if (options.verbose) return startKernel({ ...invocation, resolved, logDestination: logDestination(resolved.settings) });
  printWarnings(resolved.warnings);
  return startKernel({ ...invocation, resolved, logDestination: NO_LOG_LINES });
}

/** Configuration warnings, one plain line each on stderr. */
export function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}
