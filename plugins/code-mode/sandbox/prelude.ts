/**
 * What every program's sandbox runs first (its source is evaluated inside QuickJS): `console`, the tool error
 * classes, and `tools.<name>(args)` for each tool the caller reaches. It takes the host's three functions from
 * the global object and deletes them there, so the program reaches them only through `tools` and `console`;
 * only strings cross, both ways. It evaluates to the function that reports how the program's promise ends.
 */
export const PRELUDE = `(function () {
  'use strict';
  const hostCall = globalThis.__host_call, hostPrint = globalThis.__host_print, hostDone = globalThis.__host_done;
  const names = JSON.parse(globalThis.__tool_names);
  delete globalThis.__host_call; delete globalThis.__host_print; delete globalThis.__host_done; delete globalThis.__tool_names;
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });
  class ToolCallError extends Error {
    constructor(tool, code, message, meta) { super(message); this.name = 'ToolCallError'; this.tool = tool; this.code = code; this.meta = meta; }
  }
  class PolicyDeniedError extends ToolCallError {
    constructor(tool, code, message, meta) { super(tool, code, message, meta); this.name = 'PolicyDeniedError'; this.decision = meta === undefined ? undefined : meta.decision; }
  }
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    try { const json = JSON.stringify(value); return json === undefined ? String(value) : json; } catch (e) { return String(value); }
  };
  const print = (...values) => { hostPrint(values.map(show).join(' ')); };
  define('console', Object.freeze({ log: print, info: print, warn: print, error: print, debug: print }));
  define('ToolCallError', ToolCallError);
  define('PolicyDeniedError', PolicyDeniedError);
  const tools = Object.create(null);
  for (const name of names) {
    const method = async (args) => {
      const json = JSON.stringify(args === undefined ? {} : args);
      const reply = JSON.parse(await hostCall(name, json === undefined ? 'null' : json));
      if (reply.ok) return reply.value;
      throw new (reply.code === 'policy_denied' ? PolicyDeniedError : ToolCallError)(name, reply.code, reply.message, reply.meta);
    };
    Object.defineProperty(tools, name, { value: method, enumerable: true });
  }
  define('tools', Object.freeze(tools));
  return (completion) => Promise.resolve(completion).then(
    (value) => {
      let json;
      try { json = JSON.stringify(value); } catch (e) { hostDone(false, 'the value it returned cannot be sent back as JSON: ' + show(e)); return; }
      hostDone(true, json === undefined ? '' : json);
    },
    (error) => hostDone(false, show(error)),
  );
})()`;
