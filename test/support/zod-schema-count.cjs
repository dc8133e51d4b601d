// Preloaded (NODE_OPTIONS=--require) by tests that check how many zod schemas a process builds: zod gives each
// schema object its internals through Object.defineProperty(schema, '_zod', ...), once per schema, so counting
// those calls counts schemas. The count is written to $ZOD_SCHEMA_COUNT when the process exits.
const { writeFileSync } = require('node:fs');

const define = Object.defineProperty;
let built = 0;
Object.defineProperty = function (target, key, descriptor) {
  if (key === '_zod') built++;
  return define(target, key, descriptor);
};
process.on('exit', () => writeFileSync(process.env.ZOD_SCHEMA_COUNT, String(built)));
