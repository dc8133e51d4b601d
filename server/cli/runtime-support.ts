/** The oldest Node.js major this server supports (package.json `engines`); older ones still run it, with a notice. */
export const OLDEST_SUPPORTED_NODE = 22;

/**
 * What a server says once when this Node.js is older than the supported ones (Node 20 reached end of life on
 * 2026-04-30), or undefined: the server still starts, so an install that works keeps working while it is upgraded.
 */
export function endOfLifeNotice(version = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (!(major < OLDEST_SUPPORTED_NODE)) return undefined;
  return `Node.js ${version} is past end of life and not supported: mcp-devtools supports Node.js ${OLDEST_SUPPORTED_NODE} and 24 (LTS). It still runs; upgrade Node.js.`;
}
