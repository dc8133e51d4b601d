import { StartupError, ToolError } from '../../core/errors/tool-error.js';

/** Where a product's API lives on its origin, and how paths given to its tools are mapped there. */
export interface ProductPaths {
  label: string;
  /** The setting the prefixes came from, named in errors so a Data Center user knows what to change. */
  settingKey: string;
  prefixes: readonly string[];
  /** Bitbucket's rule: a path that does not already start with a prefix gets the first one prepended. */
  prependFirst: boolean;
  /** A path that works, shown in errors. */
  example: string;
}

/**
 * Parses a prefix list such as "/rest/, /wiki/" into normalised prefixes ("/rest", "/wiki"). A bad list is a
 * configuration error, reported at start-up with the setting named.
 */
export function parseApiPrefixes(value: string, settingKey: string): string[] {
  const prefixes = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => p.replace(/\/+$/, ''));
  if (prefixes.length === 0) throw new StartupError(`${settingKey} is empty: give at least one API path prefix such as /rest/.`);
  for (const p of prefixes) {
    if (!/^\/[A-Za-z0-9._~\-/]*$/.test(p) || p.split('/').some((s) => s === '.' || s === '..')) {
      throw new StartupError(`${settingKey} holds ${JSON.stringify(p)}, which is not a path prefix: use plain segments starting with /, such as /rest/.`);
    }
  }
  return prefixes;
}

/**
 * The product boundary: after the generic path safety checks, a path must lie under one of the product's API
 * prefixes, so one product's tool cannot call another product's API on a shared site (jira_get on /wiki/...).
 * Returns the path as it is sent (Bitbucket's prefix prepended).
 */
export function mapProductPath(path: string, product: ProductPaths): string {
  let mapped = path;
  // The reference's test is a plain startsWith (a path starting "/2.0" is taken as is); the boundary below is
  // segment-aware, so "/2.0x" is refused rather than sent.
  if (product.prependFirst && !product.prefixes.some((p) => mapped.startsWith(p))) mapped = product.prefixes[0] + mapped;
  const [pathPart = ''] = mapped.split('?', 1);
  if (product.prefixes.some((p) => pathPart === p || pathPart.startsWith(`${p}/`))) return mapped;
  const list = product.prefixes.map((p) => `${p}/`).join(', ');
  throw new ToolError(
    'invalid_path',
    `The path ${JSON.stringify(path)} is not a ${product.label} API path: ${product.label} paths start with ${list} (e.g. ${product.example}). ` +
      `If this ${product.label} serves its API elsewhere (Data Center / Server), set ${product.settingKey}.`,
  );
}
