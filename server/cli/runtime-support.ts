/** The oldest Node.js major this server supports (package.json `engines`); older ones still run it, with a notice. */
export const OLDEST_SUPPORTED_NODE = 22;

/**
 * Says once, on stderr, when this Node.js is older than the supported ones (Node 20 reached end of life on
 * 2026-04-30): the server still starts, so an install that works keeps working while it is upgraded. A JSON
 * line like every log line the server writes, so that a client or collector reading stderr as JSON can parse it.
 */
export function warnIfRuntimePastEndOfLife(version = process.versions.node, write = (line: string) => process.stderr.write(line)): boolean {
  const major = Number(version.split('.')[0]);
  if (!(major < OLDEST_SUPPORTED_NODE)) return false;
  const msg = `Node.js ${version} is past end of life and not supported: mcp-devtools supports Node.js ${OLDEST_SUPPORTED_NODE} and 24 (LTS). It still runs; upgrade Node.js.`;
  write(`${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg })}\n`);
  return true;
}
