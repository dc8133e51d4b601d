import type { ConditionsSpec } from '../document/policy-document.js';
import type { CallFacts } from './call-facts.js';
import { compileGlobs } from './glob.js';
import { allowlistOf, type Allowlist } from '../../resource-names/allowlist.js';
import { namedResources, type ListedVendor } from '../../resource-names/named-resources.js';

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
  /** Keys under which the rule index files this condition (request conditions only; see rule-index.ts). */
  readonly index?: IndexHint;
}

/**
 * A request condition that can only hold when a key taken from the call is one of `keys`: an argument equal
 * to a literal value, or a path under a literal prefix. Lets the engine look rules up instead of trying each.
 */
export type IndexHint = { kind: 'arg'; path: readonly string[]; keys: readonly string[] } | { kind: 'path'; keys: readonly string[] };

type Scalar = string | number | boolean;

/** Compiles one `match` or `except` block: each key is one condition, all of which must hold. */
export function compileConditions(spec: ConditionsSpec | undefined): Condition[] {
  if (spec === undefined) return [];
  const out: Condition[] = [];
  const glob = (key: string, level: ConditionLevel, patterns: readonly string[] | undefined, pick: (f: CallFacts) => string | null | undefined): void => {
    if (patterns === undefined) return;
    const matches = compileGlobs(patterns);
    out.push({
      key,
      level,
      expected: list(patterns),
      test: (f) => {
        const v = pick(f);
        return v !== null && v !== undefined && matches(v);
      },
      actual: (f) => shown(pick(f)),
    });
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
  // Whether the caller's own account acts depends on the call (a link made or removed a moment ago): request level.
  if (spec.identity !== undefined) {
    const want = spec.identity;
    const kind = (f: CallFacts): string => (f.identity?.kind === 'user' ? 'user' : 'service');
    out.push({ key: 'identity', level: 'request', expected: want, test: (f) => kind(f) === want, actual: kind });
  }
  glob('logins', 'request', spec.logins, (f) => f.identity?.login);
  if (spec.subjects !== undefined) {
    const subjects = new Set(spec.subjects);
    out.push({ key: 'subjects', level: 'principal', expected: list(spec.subjects), test: (f) => subjects.has(f.subject), actual: (f) => f.subject });
  }
  if (spec.groups !== undefined) {
    const groups = new Set(spec.groups);
    out.push({
      key: 'groups',
      level: 'principal',
      expected: list(spec.groups),
      test: (f) => f.groups.some((g) => groups.has(g)),
      actual: (f) => list(f.groups),
    });
  }
  if (spec.methods !== undefined) {
    const methods = new Set<string>(spec.methods);
    out.push({
      key: 'methods',
      level: 'request',
      expected: list(spec.methods),
      test: (f) => f.method !== null && methods.has(f.method.toUpperCase()),
      actual: (f) => shown(f.method),
    });
  }
  if (spec.paths !== undefined) {
    // Written as paths are matched (see servedPath): `/rest/api/3/` means `/rest/api/3`.
    const patterns = spec.paths.map((p) => p.replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1'));
    const matches = compileGlobs(patterns);
    const prefixes = patterns.map(literalPrefix);
    const index: IndexHint | undefined = prefixes.every((p) => p !== undefined) ? { kind: 'path', keys: prefixes as string[] } : undefined;
    out.push({
      key: 'paths',
      level: 'request',
      expected: list(spec.paths),
      test: (f) => f.path !== null && matches(f.path),
      actual: (f) => shown(f.path),
      ...(index ? { index } : {}),
    });
  }
  out.push(...flowConditions(spec));
  for (const [name, allowed] of Object.entries(spec.args ?? {})) out.push(argCondition(name, Array.isArray(allowed) ? allowed : [allowed]));
  out.push(...graphqlConditions(spec.graphql));
  out.push(...resourceCondition(spec.resources));
  return out;
}

/**
 * `graphql: {operation, fields}`: the operation type, and globs of its root fields. The engine decides an
 * operation of several root fields field by field (policy-engine.ts), so `fields` sees one at a time; given
 * several, every one must match. Neither holds for a REST call.
 */
function graphqlConditions(spec: ConditionsSpec['graphql']): Condition[] {
  const out: Condition[] = [];
  if (spec?.operation !== undefined) {
    const want = spec.operation;
    out.push({
      key: 'graphql.operation',
      level: 'request',
      expected: want,
      test: (f) => f.graphql?.operation === want,
      actual: (f) => shown(f.graphql?.operation),
    });
  }
  if (spec?.fields !== undefined) {
    const matches = compileGlobs(spec.fields);
    out.push({
      key: 'graphql.fields',
      level: 'request',
      expected: list(spec.fields),
      test: (f) => f.graphql !== null && f.graphql !== undefined && f.graphql.fields.length > 0 && f.graphql.fields.every(matches),
      actual: (f) => (f.graphql === null || f.graphql === undefined ? '(none)' : list(f.graphql.fields)),
    });
  }
  return out;
}

/**
 * Flow rules (docs/untrusted-content.md#flow-rules): `session: {read: [untrusted, private]}` holds when the
 * caller's session has read content of every kind listed; `target: {visibility: public}` when the call writes to
 * a resource of that visibility (unknown counts as public). A call without flow facts matches neither.
 */
function flowConditions(spec: ConditionsSpec): Condition[] {
  const out: Condition[] = [];
  if (spec.session !== undefined) {
    const kinds = spec.session.read;
    const has = (f: CallFacts, kind: 'untrusted' | 'private'): boolean => f.flow?.storeDown === true || f.flow?.[kind] !== undefined;
    out.push({
      key: 'session.read',
      level: 'request',
      expected: list(kinds),
      test: (f) => f.flow !== undefined && kinds.every((k) => has(f, k)),
      actual: (f) => (f.flow === undefined ? '(none)' : list((['untrusted', 'private'] as const).filter((k) => has(f, k)))),
    });
  }
  if (spec.target !== undefined) {
    const want = spec.target.visibility;
    out.push({
      key: 'target.visibility',
      level: 'request',
      expected: want,
      test: (f) => f.flow?.target !== undefined && f.flow.target !== null && f.flow.target.visibility === want,
      actual: (f) => (f.flow?.target ? `${f.flow.target.resource} ${f.flow.target.visibility}${f.flow.target.known ? '' : ' (unknown)'}` : '(none)'),
    });
  }
  return out;
}

/** `args: {"fields.project.key": [PLAT, OPS]}`: the argument at a dotted path equals one of the values. */
function argCondition(name: string, allowed: readonly Scalar[]): Condition {
  const strings = allowed.filter((v): v is string => typeof v === 'string');
  const matchesString = strings.length > 0 ? compileGlobs(strings) : () => false;
  const others: readonly unknown[] = allowed.filter((v) => typeof v !== 'string');
  const one = (v: unknown): boolean => (typeof v === 'string' ? matchesString(v) : others.includes(v));
  const path = name.split('.');
  const keys = allowed.map(valueKey);
  return {
    ...(keys.every((k) => k !== undefined) ? { index: { kind: 'arg' as const, path, keys: keys as string[] } } : {}),
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

/**
 * The index key of a value: literal strings fold to lower case, as the case-insensitive match does. Only
 * ASCII strings are indexed: for them the regular expression's case folding and toLowerCase agree exactly.
 */
export function valueKey(value: unknown): string | undefined {
  if (typeof value === 'string') return /^[\x20-\x7e]*$/.test(value) && !/[*?]/.test(value) ? `s:${value.toLowerCase()}` : undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value}:${String(value)}`;
  return undefined;
}

/** The literal folder a path glob stays under (`/rest/api/3` for `/rest/api/3/issue*`), when it has one. */
function literalPrefix(pattern: string): string | undefined {
  const wildcard = pattern.search(/[*?]/);
  const cut = wildcard < 0 ? pattern.length : pattern.lastIndexOf('/', wildcard);
  const folder = pattern.slice(0, Math.max(0, cut)).replace(/\/+$/, '');
  return folder !== '' && /^[\x20-\x7e]*$/.test(folder) ? folder.toLowerCase() : undefined;
}

/** Every folder prefix of a path, and the path itself, folded as literalPrefix folds: the keys to look up. */
export function pathKeys(path: string): string[] {
  const folded = path.toLowerCase();
  const keys: string[] = [];
  for (let i = folded.indexOf('/', 1); i > 0; i = folded.indexOf('/', i + 1)) keys.push(folded.slice(0, i));
  keys.push(folded);
  return keys;
}

export function lookup(args: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
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

/** Each key of `resources`, the vendor whose requests it reads and how its entries are written. */
const KEYS = {
  repos: { vendor: 'github', parts: 2 },
  bitbucketRepos: { vendor: 'bitbucket', parts: 2 },
  circleciProjects: { vendor: 'circleci', parts: 3 },
  jiraProjects: { vendor: 'jira', parts: 1 },
  confluenceSpaces: { vendor: 'confluence', parts: 1 },
} as const satisfies Record<string, { vendor: ListedVendor; parts: number }>;

/**
 * `resources: {repos: [acme/*], jiraProjects: [PLAT]}`: the allowlists as a rule's condition, so a rule can
 * scope them per group. Holds when the request names at least one resource of its vendor and every one is on
 * that vendor's list here, read from the request as the MCP_ALLOW_* settings read it (named-resources.ts, the
 * same code): a request that names none (`/user`, a search without `repo:`), one of a vendor without a list
 * here, or a resource named in a spelling no list decides (a repository by id) does not match, so an `except`
 * built on it fails closed.
 */
function resourceCondition(spec: ConditionsSpec['resources']): Condition[] {
  if (spec === undefined) return [];
  const lists = new Map<string, Allowlist>();
  for (const [key, { vendor, parts }] of Object.entries(KEYS)) {
    const patterns = spec[key as keyof typeof KEYS];
    // The document's schema holds each entry to its shape: allowlistOf cannot refuse one here.
    const list = patterns === undefined ? undefined : allowlistOf(`resources.${key}`, patterns.join(','), { parts, example: '' });
    if (list !== undefined) lists.set(vendor, list);
  }
  const named = (f: CallFacts) => (f.request === undefined || !lists.has(f.vendor) ? [] : namedResources(f.vendor as ListedVendor, f.request));
  return [
    {
      key: 'resources',
      level: 'request',
      expected: [...Object.entries(spec)].map(([k, v]) => `${k}: ${(v as string[]).join(', ')}`).join('; '),
      test: (f) => {
        const list = lists.get(f.vendor);
        const all = named(f);
        return (
          list !== undefined &&
          all.length > 0 &&
          all.every((n) => (n.kind === 'resource' ? list.allows(n.value) : n.kind === 'container' ? list.allowsPrefix(n.value) : false))
        );
      },
      actual: (f) => {
        const all = named(f);
        return all.length === 0 ? '(none)' : all.map((n) => (n.kind === 'undecidable' ? n.what : n.value)).join(', ');
      },
    },
  ];
}
