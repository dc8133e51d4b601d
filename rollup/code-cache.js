// Runs the start-up code (a function expression in a file of its own, see rollup/startup-code-cache.mjs)
// through vm.Script with a V8 code cache, so that a start deserialises the compiled code instead of parsing and
// compiling two megabytes of JavaScript.
//
// The cache is a file beside the code it was made from, named after the V8 version and the architecture (V8
// refuses a cache of another version, build or flags on its own, and a name per version keeps two Node versions
// from overwriting each other's) and after the code file's modification time: V8 checks a cache against its
// source's length only, so a code file edited in place must not meet the cache of its former self. Beside the code because whoever can write there can already change
// the code, so the cache adds no one who can change what runs; a shared temporary directory would. Written at
// exit, when there was none or V8 rejected it, with every function compiled so far (those of the first
// requests included), through a temporary file renamed into place so that a concurrent start never reads half
// of one. Where the directory is read-only, or anything else fails, the code runs without a cache: the cache
// only ever saves time.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { fileURLToPath } = require('node:url');
const { Script } = require('node:vm');

/** Runs the code at `url` once and returns what its function returns, called with a require and `inputs`. */
export function runCached(url, inputs) {
  const file = fileURLToPath(url);
  const cacheFile = `${file}.${process.versions.v8}-${process.arch}-${Math.trunc(statSync(file).mtimeMs)}.cache`;
  const cachedData = readIfThere(cacheFile);
  const script = new Script(readFileSync(file, 'utf8'), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => writeCache(script, cacheFile));
  }
  return script.runInThisContext()(createRequire(url), ...inputs);
}

function readIfThere(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(script, cacheFile) {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    rmSync(temporary, { force: true });
  }
}
