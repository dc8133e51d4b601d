'use strict';
/*
 * Loaded with `node -r` into the reference Atlassian servers (the oracle of the differential test), before their
 * own code. They hard-code their upstream hosts and a /tmp/mcp folder for raw responses; this points both at
 * what the test controls, and nothing else:
 * - fetch to an origin in DIFF_REWRITE_ORIGINS (comma-separated) goes to DIFF_UPSTREAM, path and query kept;
 *   any other fetch fails, so the oracle can never reach a real vendor;
 * - file system calls under /tmp/mcp/ go under DIFF_RAW_DIR.
 */
const fs = require('node:fs');
const path = require('node:path');

const upstream = process.env.DIFF_UPSTREAM;
const origins = (process.env.DIFF_REWRITE_ORIGINS || '').split(',').filter(Boolean);
const rawDir = process.env.DIFF_RAW_DIR;
if (!upstream || origins.length === 0 || !rawDir) throw new Error('preload.cjs needs DIFF_UPSTREAM, DIFF_REWRITE_ORIGINS and DIFF_RAW_DIR');

const realFetch = globalThis.fetch;
globalThis.fetch = function rewrittenFetch(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const origin = origins.find((o) => url === o || url.startsWith(`${o}/`) || url.startsWith(`${o}?`));
  if (origin === undefined) return Promise.reject(new TypeError(`fetch to ${url} refused by the differential-test preload`));
  return realFetch(upstream + url.slice(origin.length), init);
};

const TMP_MCP = '/tmp/mcp';
const redirect = (p) => (typeof p === 'string' && (p === TMP_MCP || p.startsWith(`${TMP_MCP}/`)) ? path.join(rawDir, p.slice(TMP_MCP.length)) : p);
for (const name of ['existsSync', 'mkdirSync', 'writeFileSync']) {
  const original = fs[name];
  fs[name] = function redirected(target, ...rest) {
    return original.call(this, redirect(target), ...rest);
  };
}
