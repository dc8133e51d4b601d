import { editDistance } from '../../core/text/nearest-names.js';

/** What a `jq` that failed on an answer gives instead of the projection: the error and where to look, not the data. */
export interface JqFailure {
  _jqError: string;
  /** What the JMESPath library said (the token it stopped at, the function it does not know). */
  reason: string;
  /** The key paths of the answer nearest to the expression, nearest first (JMESPath, `[*]` for any item). */
  nearestPaths: string[];
  /** The answer's top-level keys (of its items, `[*].key`, when it is an array). */
  topLevelKeys: string[];
}

/** Paths offered, and keys listed: a handful to retry with, not a schema. */
const NEAREST = 5;
const MAX_KEYS = 50;
/** How much of the answer is walked for paths: deep enough for real answers, bounded for any. */
const MAX_DEPTH = 6;
const MAX_PATHS = 1000;
const ITEMS_SAMPLED = 20;
/** The expression's head compared with each path: edit distance is quadratic in the two lengths. */
const COMPARED_CHARS = 200;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The non-error result of an expression that does not parse or fails on `data`. Where the reference Atlassian
 * servers (and this server before 0.3.0) put the whole answer beside the error, up to the 40,000 characters a
 * model reads, this names the paths of the answer nearest to what was typed and its top-level keys: enough to
 * correct the expression, at a few hundred characters whatever the answer's size.
 */
export function jqFailure(data: unknown, expression: string, error: unknown): JqFailure {
  const typed = expression.trim().slice(0, COMPARED_CHARS);
  const paths = keyPaths(data);
  const keys = new Set(paths.map((p) => p.key));
  // The names typed that are no key of the answer are the likely typos: the paths ending nearest to one come
  // first. With none (a syntax error around valid names), the paths nearest to the whole expression.
  const unknown = namesIn(typed).filter((name) => !keys.has(name));
  const nearestPaths = paths
    .map(({ path, key }) => ({
      path,
      typo: unknown.length === 0 ? 0 : Math.min(...unknown.map((name) => editDistance(name, key))),
      whole: editDistance(typed, path),
    }))
    .sort((a, b) => a.typo - b.typo || a.whole - b.whole || a.path.length - b.path.length || a.path.localeCompare(b.path))
    .slice(0, NEAREST)
    .map((p) => p.path);
  return {
    _jqError: `Invalid JMESPath expression: ${expression}`,
    reason: error instanceof Error ? error.message : String(error),
    nearestPaths,
    topLevelKeys: topLevelKeys(data),
  };
}

/** The field names an expression uses: identifiers, not string literals or function names (`abs(`). */
function namesIn(expression: string): string[] {
  const code = expression.replace(/'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, ' ');
  const names = [...code.matchAll(/"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/g)].filter((m) => m[3] === undefined).map((m) => m[1] ?? m[2]!);
  return [...new Set(names)];
}

function topLevelKeys(data: unknown): string[] {
  if (Array.isArray(data))
    return itemKeys(data)
      .slice(0, MAX_KEYS)
      .map((k) => `[*].${field(k)}`);
  return isObject(data) ? Object.keys(data).slice(0, MAX_KEYS).map(field) : [];
}

/** A key path of the answer (`workflow_runs[*].name`) and the key it ends with (`name`). */
interface KeyPath {
  path: string;
  key: string;
}

/** Every key path of `data` (arrays as `[*]`, their first items merged), breadth first, bounded. */
function keyPaths(data: unknown): KeyPath[] {
  const paths: KeyPath[] = [];
  let level: Array<{ path: string; key: string; value: unknown }> = [{ path: '', key: '', value: data }];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && paths.length < MAX_PATHS; depth++) {
    const next: Array<{ path: string; key: string; value: unknown }> = [];
    for (const { path, key, value } of level) {
      const children = Array.isArray(value)
        ? [{ path: `${path}[*]`, key, values: value.slice(0, ITEMS_SAMPLED) }]
        : isObject(value)
          ? Object.keys(value).map((k) => ({ path: path === '' ? field(k) : `${path}.${field(k)}`, key: k, values: [value[k]] }))
          : [];
      for (const child of children) {
        if (paths.length >= MAX_PATHS) break;
        if (child.path !== '[*]') paths.push({ path: child.path, key: child.key });
        // Items of an array merge: their keys are listed once, whichever item has them.
        const merged = Array.isArray(value) ? mergeItems(child.values) : child.values[0];
        next.push({ path: child.path, key: child.key, value: merged });
      }
    }
    level = next;
  }
  return paths;
}

function mergeItems(items: unknown[]): unknown {
  const objects = items.filter(isObject);
  if (objects.length === 0) return items.find(Array.isArray) ?? null;
  const merged: Record<string, unknown> = {};
  for (const item of objects) for (const key of Object.keys(item)) if (!Object.prototype.hasOwnProperty.call(merged, key)) merged[key] = item[key];
  return merged;
}

function itemKeys(items: unknown[]): string[] {
  const merged = mergeItems(items.slice(0, ITEMS_SAMPLED));
  return isObject(merged) ? Object.keys(merged) : [];
}

/** A key as a JMESPath field: bare when it is an identifier, quoted otherwise (`"foo-bar"`). */
function field(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
