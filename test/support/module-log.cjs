// Preloaded (NODE_OPTIONS=--require) by tests that check which modules a process loads: appends each module
// it loads to $MODULE_LOG, one a line: CommonJS and built-ins through Module._load (as a path, or node:name),
// ES modules through a loader hook (as a file: URL).
const { appendFileSync } = require('node:fs');
const Module = require('node:module');

const log = process.env.MODULE_LOG;

const load = Module._load;
Module._load = function (request, parent, isMain) {
  const exports = load.apply(this, arguments);
  const bare = request.replace(/^node:/, '');
  appendFileSync(log, `${Module.isBuiltin(bare) ? `node:${bare}` : Module._resolveFilename(request, parent, isMain)}\n`);
  return exports;
};

// The hook runs on the loader's own thread, where $MODULE_LOG is as here.
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
Module.register(`data:text/javascript,${encodeURIComponent(hooks)}`);
