// Runs the start-up code (a function expression in a file of its own, see rollup/startup-code-cache.mjs)
// through vm.Script with a V8 code cache, so that a start deserialises the compiled code instead of parsing and
// compiling two megabytes of JavaScript.
//
// The cache is named after the code file, the V8 version and the architecture (V8 refuses a cache of another
// version, build or flags on its own, and a name per version keeps two Node versions from overwriting each
// other's) and after the code file's modification time: V8 checks a cache against its source's length only, so
// a code file edited in place must not meet the cache of its former self. It is kept beside the code, because
// whoever can write there can already change the code; where that directory is not writable (a global install
// owned by root), in the user's own cache directory, created readable by the user only. Never in a shared
// temporary directory, where another user could put code of theirs in. Written at exit, when there was none,
// V8 rejected it or it held clearly less than this run compiled, with every function compiled so far (those of
// the first requests included), through a temporary file renamed into place so that a concurrent start never
// reads half of one. Whatever fails, the code runs without a cache: the cache only ever saves time.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { basename, dirname, isAbsolute, join } = require('node:path');
const { fileURLToPath } = require('node:url');
const { Script } = require('node:vm');

/** Runs the code at `url` once and returns what its function returns, called with a require and `inputs`. */
export function runCached(url, inputs) {
  const file = fileURLToPath(url);
  const name = `${basename(file)}.${process.versions.v8}-${process.arch}-${Math.trunc(statSync(file).mtimeMs)}.cache`;
  const places = [join(dirname(file), name), ...userCacheDirectory().map((directory) => join(directory, name))];
  let cachedData;
  for (let i = 0; i < places.length && cachedData === undefined; i++) cachedData = readIfThere(places[i]);
  const script = new Script(readFileSync(file, 'utf8'), { filename: file, cachedData });
  const usable = cachedData !== undefined && script.cachedDataRejected !== true ? cachedData : undefined;
  process.once('exit', () => writeCache(script, places, usable));
  return script.runInThisContext()(createRequire(url), ...inputs);
}

/**
 * `$XDG_CACHE_HOME/mcp-devtools`, or `~/.cache/mcp-devtools` (a relative XDG_CACHE_HOME is to be ignored); none
 * when there is no home directory to be found.
 */
function userCacheDirectory() {
  try {
    const base = process.env.XDG_CACHE_HOME;
    return [join(base && isAbsolute(base) ? base : join(homedir(), '.cache'), 'mcp-devtools')];
  } catch {
    return [];
  }
}

function readIfThere(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the script's cache to the first of `places` that takes it, unless the cache this start used holds about
 * as much compiled code: a cache made by a short run (`--version`) lacks what serving compiles, and is replaced
 * by the first run that compiled an eighth more. At exit, so it never throws.
 */
function writeCache(script, places, used) {
  try {
    const data = script.createCachedData();
    if (used !== undefined && data.length <= used.length * 1.125) return;
    for (const cacheFile of places) {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
        writeFileSync(temporary, data);
        renameSync(temporary, cacheFile);
        return;
      } catch {
        rmSync(temporary, { force: true });
      }
    }
  } catch {
    // No cache this time.
  }
}
