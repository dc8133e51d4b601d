import type { ConditionsSpec } from '../document/policy-document.js';
import type { CallFacts } from './call-facts.js';
import { compileGlobs } from './glob.js';

/**
 * When a condition's answer can change: never for a given tool, per caller, or per call. The engine
 * settles the first two once per (tool, caller) and evaluates only request conditions on each call.
 */
export type ConditionLevel = 'tool' | 'principal' | 'request';

export interface Condition {
  /** The document key (`tools`, `args.owner`), for `policy explain`. */
  readonly key: string;
  readonly level: ConditionLevel;
  /** The values the rule allows, as written. */
  readonly expected: string;
  test(facts: CallFacts): boolean;
  /** What the call had, for `policy explain`. */
  actual(facts: CallFacts): string;
}

type Scalar = string | number | boolean;

/** Compiles one `match` or `except` block: each key is one condition, all of which must hold. */
export function compileConditions(spec: ConditionsSpec | undefined): Condition[] {
  if (spec === undefined) return [];
  const out: Condition[] = [];
  const glob = (key: string, level: ConditionLevel, patterns: readonly string[] | undefined, pick: (f: CallFacts) => string | null | undefined): void => {
    if (patterns === undefined) return;
    const matches = compileGlobs(patterns);
    out.push({ key, level, expected: list(patterns), test: (f) => { const v = pick(f); return v !== null && v !== undefined && matches(v); }, actual: (f) => shown(pick(f)) });
  };
  glob('tools', 'tool', spec.tools, (f) => f.tool);
  glob('vendors', 'tool', spec.vendors, (f) => f.vendor);
  if (spec.readOnly !== undefined) {
    const want = spec.readOnly;
    out.push({ key: 'readOnly', level: 'tool', expected: String(want), test: (f) => f.readOnly === want, actual: (f) => String(f.readOnly) });
  }
  glob('credentials', 'tool', spec.credentials, (f) => f.identity?.credential);
  glob('hosts', 'tool', spec.hosts, (f) => f.identity?.host);
  glob('environments', 'tool', spec.environments, (f) => f.identity?.environment);
  if (spec.subjects !== undefined) {
    const subjects = new Set(spec.subjects);
    out.push({ key: 'subjects', level: 'principal', expected: list(spec.subjects), test: (f) => subjects.has(f.subject), actual: (f) => f.subject });
  }
  if (spec.groups !== undefined) {
    const groups = new Set(spec.groups);
    out.push({ key: 'groups', level: 'principal', expected: list(spec.groups), test: (f) => f.groups.some((g) => groups.has(g)), actual: (f) => list(f.groups) });
  }
  if (spec.methods !== undefined) {
    const methods = new Set<string>(spec.methods);
    out.push({ key: 'methods', level: 'request', expected: list(spec.methods), test: (f) => f.method !== null && methods.has(f.method.toUpperCase()), actual: (f) => shown(f.method) });
  }
  glob('paths', 'request', spec.paths, (f) => f.path);
  for (const [name, allowed] of Object.entries(spec.args ?? {})) out.push(argCondition(name, Array.isArray(allowed) ? allowed : [allowed]));
  return out;
}

/** `args: {"fields.project.key": [PLAT, OPS]}`: the argument at a dotted path equals one of the values. */
function argCondition(name: string, allowed: readonly Scalar[]): Condition {
  const strings = allowed.filter((v): v is string => typeof v === 'string');
  const matchesString = strings.length > 0 ? compileGlobs(strings) : () => false;
  const others: readonly unknown[] = allowed.filter((v) => typeof v !== 'string');
  const one = (v: unknown): boolean => (typeof v === 'string' ? matchesString(v) : others.includes(v));
  const path = name.split('.');
  return {
    key: `args.${name}`,
    level: 'request',
    expected: list(allowed.map(String)),
    test: (f) => {
      const v = lookup(f.args, path);
      return Array.isArray(v) ? v.some(one) : one(v);
    },
    actual: (f) => shown(lookup(f.args, path)),
  };
}

function lookup(args: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let v: unknown = args;
  for (const part of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function list(values: readonly string[]): string {
  return `[${values.join(', ')}]`;
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return '(none)';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
