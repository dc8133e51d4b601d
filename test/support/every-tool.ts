/**
 * The suite's servers serve every tool unless a test chooses (with a setting or a flag): most tests are about a
 * tool, not about which tools a server serves by default. Which tools a server with no selection serves is
 * test/e2e/toolsets.test.ts's to hold.
 */
const SELECTION_SETTINGS = ['MCP_TOOLSETS', 'MCP_TOOLS', 'MCP_DYNAMIC_TOOLSETS'];
const SELECTION_FLAGS = ['--toolsets', '--tools', '--dynamic-toolsets'];

export function everyToolUnlessChosen(env: Record<string, string> = {}, args: readonly string[] = []): Record<string, string> {
  const chosen = SELECTION_SETTINGS.some((key) => key in env) || args.some((arg) => SELECTION_FLAGS.includes(arg.split('=')[0]!));
  return chosen ? env : { MCP_TOOLSETS: 'all', ...env };
}
