import jmespath from 'jmespath';

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

/**
 * What one projection may produce, counted while it runs. An expression like `[@,@] | [@,@] | ...` builds
 * values whose parts are shared, so it costs nothing to evaluate and 2^n to copy out or render: 22 pipes on
 * a 100-byte body took minutes and 4 GB before the process died. So every value the evaluation produces is
 * measured as it would be written out (shared parts counted each time they appear, but measured once:
 * memoised by identity), and the projection stops as soon as one is larger than the budget, or the
 * evaluation has run past its deadline.
 */

/** Written-out size (about JSON bytes) any produced value may reach, at least: small bodies stay small. */
export const MIN_BUDGET_BYTES = 1024 * 1024;
/** ...or this many times the size of the body being projected, when that is larger. */
export const BODY_FACTOR = 2;
/** How long the evaluation may run. */
export const DEADLINE_MS = 1000;
/** Visits between two looks at the clock. */
const CLOCK_EVERY = 1024;

/** Why a projection was stopped: its text is the caller's error message. */
export class ProjectionTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectionTooLarge';
  }
}

export class ProjectionBudget {
  private readonly sizes = new WeakMap<object, number>();
  private readonly deadline: number;
  private limit = MIN_BUDGET_BYTES;
  private bodySized = false;
  private visits = 0;

  constructor(
    private readonly body: unknown,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + DEADLINE_MS;
  }

  /**
   * Accounts one evaluated node, and measures its value when the node built it (`built`); throws
   * ProjectionTooLarge when the value is over budget or the deadline has passed.
   */
  visited(built: boolean, value: unknown): void {
    if (++this.visits % CLOCK_EVERY === 0 && this.now() > this.deadline) {
      throw new ProjectionTooLarge(`the expression ran for more than ${DEADLINE_MS} ms`);
    }
    if (!built || this.within(value)) return;
    if (!this.bodySized) {
      // Over the minimum: a large body may have a larger budget, measured once (only now, for such calls).
      this.bodySized = true;
      this.limit = Math.max(MIN_BUDGET_BYTES, BODY_FACTOR * this.sizeOf(this.body, Number.POSITIVE_INFINITY));
      if (this.within(value)) return;
    }
    throw new ProjectionTooLarge(
      `it would produce more than ${formatBytes(this.limit)} of data (the larger of ${formatBytes(MIN_BUDGET_BYTES)} and ${BODY_FACTOR} times the response)`,
    );
  }

  private within(value: unknown): boolean {
    if (value === null || typeof value !== 'object') return typeof value !== 'string' || value.length + 2 <= this.limit;
    return this.sizeOf(value, this.limit) <= this.limit;
  }

  /**
   * About the JSON length of `value`, shared parts counted as often as they appear, computed once per object
   * (memoised), stopping once past `cap` (the partial size, already over, is returned and not memoised).
   */
  private sizeOf(value: unknown, cap: number): number {
    if (value === null || value === undefined) return 4;
    if (typeof value === 'string') return value.length + 2;
    if (typeof value !== 'object') return 8;
    const known = this.sizes.get(value);
    if (known !== undefined) return known;
    let size = 2;
    if (Array.isArray(value)) {
      for (const item of value) {
        size += 1 + this.sizeOf(item, cap - size);
        if (size > cap) return size;
      }
    } else {
      for (const key of Object.keys(value)) {
        size += key.length + 4 + this.sizeOf((value as Record<string, unknown>)[key], cap - size);
        if (size > cap) return size;
      }
    }
    this.sizes.set(value, size);
    return size;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
