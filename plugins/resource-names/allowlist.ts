import { StartupError } from '../../core/errors/tool-error.js';

/**
 * One vendor's allowlist: the setting it comes from and its patterns. A pattern is `/`-separated parts where `*`
 * matches any run of characters within one part (never a `/`: `acme/*` is no pattern for `acme-evil/x`), `?`
 * one character; matching ignores case, as the vendors do for these names (GitHub owners, Jira keys).
 */
export interface Allowlist {
  readonly setting: string;
  readonly patterns: readonly string[];
  /** Whether a resource (`acme/app`, `PLAT`, `gh/acme/app`) is on the list. */
  allows(resource: string): boolean;
  /** Whether some pattern's first `parts` parts match (a workspace whose listing may be read). */
  allowsPrefix(prefix: string): boolean;
}

/** How a setting's entries are written: how many `/`-separated parts each has, and an example. */
export interface ListShape {
  readonly parts: number;
  readonly example: string;
}

/**
 * The list a setting holds, or undefined when it is unset (everything allowed). An entry of another shape
 * (`acme` in MCP_ALLOW_REPOS, which would match no repository and refuse every call) fails start-up.
 */
export function allowlistOf(setting: string, value: string, shape: ListShape): Allowlist | undefined {
  const patterns = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (patterns.length === 0) return undefined;
  for (const pattern of patterns) {
    const parts = pattern.split('/');
    if (parts.length !== shape.parts || parts.some((part) => part === '')) {
      throw new StartupError(
        `${setting} lists ${JSON.stringify(pattern)}, which is not of the form ${shape.example}: write each entry like that, separated by commas.`,
      );
    }
  }
  const whole = patterns.map((p) => new RegExp(`^${partsSource(p.split('/'))}$`, 'is'));
  return {
    setting,
    patterns,
    allows: (resource) => whole.some((r) => r.test(resource)),
    allowsPrefix: (prefix) => {
      const parts = prefix.split('/').length;
      return patterns.some((p) => new RegExp(`^${partsSource(p.split('/').slice(0, parts))}$`, 'is').test(prefix));
    },
  };
}

function partsSource(parts: readonly string[]): string {
  return parts
    .map((part) => [...part].map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&'))).join(''))
    .join('/');
}
