import jmespath from 'jmespath';
import { ProjectionBudget } from './projection-budget.js';

type Visit = (this: unknown, node: unknown, value: unknown) => unknown;

/** The budget of the evaluation running now (evaluation is synchronous, so there is at most one). */
let active: ProjectionBudget | undefined;

/**
 * The library's tree interpreter, which it does not export. `search` hands its interpreter to its runtime as
 * `runtime._interpreter = interpreter`; a setter put on Object.prototype for that one synchronous call
 * catches it, and is removed at once. Should a new version of the library stop doing this, loading fails
 * loudly (a test runs a projection) rather than evaluating unbounded.
 */
function interpreterPrototype(): { visit: Visit } {
  const key = '_interpreter';
  const slots = new WeakMap<object, unknown>();
  let captured: object | undefined;
  Object.defineProperty(Object.prototype, key, {
    configurable: true,
    get(this: object) {
      return slots.get(this);
    },
    set(this: object, value: unknown) {
      slots.set(this, value);
      if (value !== null && typeof value === 'object') captured = value;
    },
  });
  try {
    jmespath.search({}, '@');
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
  const proto = captured === undefined ? undefined : (Object.getPrototypeOf(captured) as { visit?: unknown });
  if (proto === undefined || typeof proto.visit !== 'function') throw new Error('the jmespath library changed: its interpreter can no longer be bounded');
  return proto as { visit: Visit };
}

/**
 * The nodes that build new values (arrays, objects, strings from functions). The others hand on a part of
 * their input (a field, an index, the current value) or a boolean, which cannot be larger than what came in.
 */
const PRODUCERS = new Set(['Projection', 'ValueProjection', 'FilterProjection', 'Flatten', 'Slice', 'MultiSelectList', 'MultiSelectHash', 'Function']);

const interpreter = interpreterPrototype();
const unbounded = interpreter.visit;
// Every node the interpreter evaluates is counted (for the deadline), and what a producer built is measured.
interpreter.visit = function visit(node, value) {
  const result = unbounded.call(this, node, value);
  active?.visited(PRODUCERS.has((node as { type: string }).type), result);
  return result;
};

/**
 * `jmespath.search`, with every value the evaluation produces accounted to a budget for `data`: throws
 * ProjectionTooLarge as soon as one would be too large to copy out or render, or the deadline has passed.
 */
export function boundedSearch(data: unknown, expression: string, budget = new ProjectionBudget(data)): unknown {
  const outer = active;
  active = budget;
  try {
    return jmespath.search(data as never, expression);
  } finally {
    active = outer;
  }
}
