import type { ToolErrorClasses, ToolErrorRecord } from './tool-errors.js';

/**
 * The harness's side of the sandbox's only doors. The sandbox holds these functions in a closure the program
 * cannot reach, and passes them nothing but strings and its own callbacks, so no host object (whose constructor
 * would lead back to the host's `Function`, and from there to `process`) ever gets into the program's hands.
 */
export interface HostDoors {
  call(tool: string, argsJson: string, settle: (ok: boolean, json: string) => void): void;
  print(line: string): void;
  violation(what: string): void;
  finish(ok: boolean, json: string): void;
}

/** How a program ended, as the sandbox reports it: its return value, or what it threw. */
export type Ending = { value: unknown } | { toolError: ToolErrorRecord } | { errorName: string; errorMessage: string };

/**
 * Runs inside the fresh context (its source text is evaluated there, so it must use nothing from outside its
 * body): installs `console`, the tool error classes, `tools.<name>(args)` for each tool, and traps on the globals
 * a Node program would reach for. Returns `watch`, which reports how the program's promise ends.
 */
export function installSandbox(doors: HostDoors, toolNamesJson: string, forbiddenJson: string, errors: ToolErrorClasses) {
  'use strict';
  const define = (name: string, value: unknown) => Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });
  const { fromRecord, ...classes } = errors;
  for (const [name, value] of Object.entries(classes)) define(name, value);

  const show = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const print = (...values: unknown[]) => doors.print(values.map(show).join(' '));
  define('console', Object.freeze({ log: print, info: print, warn: print, error: print, debug: print }));

  const tools = Object.create(null) as Record<string, (args?: unknown) => Promise<unknown>>;
  for (const name of JSON.parse(toolNamesJson) as string[]) {
    // Arguments are serialized here, inside the program's time limit: a getter the program planted runs under it.
    tools[name] = (args: unknown = {}) =>
      new Promise((resolve, reject) => {
        const json = JSON.stringify(args);
        doors.call(name, json, (ok, result) => (ok ? resolve(JSON.parse(result)) : reject(fromRecord(JSON.parse(result) as ToolErrorRecord))));
      });
  }
  define('tools', Object.freeze(tools));

  for (const name of JSON.parse(forbiddenJson) as string[]) {
    Object.defineProperty(globalThis, name, {
      get() {
        doors.violation(name);
        throw new ReferenceError(`${name} is not available in the sandbox: the only way out is tools.<name>(args)`);
      },
      configurable: false,
    });
  }

  const report = (ending: Ending, ok: boolean) => {
    try {
      doors.finish(ok, JSON.stringify(ending));
    } catch (error) {
      doors.finish(false, JSON.stringify({ errorName: 'TypeError', errorMessage: `the program's result cannot be sent back as JSON: ${show(error)}` }));
    }
  };
  return (completion: unknown) =>
    Promise.resolve(completion).then(
      (value) => report({ value: value === undefined ? null : value }, true),
      (error: unknown) =>
        report(
          error instanceof classes.ToolCallError
            ? { toolError: error.toRecord() }
            : { errorName: error instanceof Error ? error.name : 'Thrown', errorMessage: error instanceof Error ? error.message : show(error) },
          false,
        ),
    );
}
