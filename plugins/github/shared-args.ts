import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolAnnotations } from '../../core/plugin/contract.js';

// Names GitHub accepts for owners and repositories; anything else could only make a different path.
export const Owner = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'User or organization.' });
export const Repo = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'Repository name.' });
// Optional, with the default applied before the route is computed: a model need not send them.
export const PerPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30, description: 'Page size.' }));
export const Page = Type.Optional(Type.Integer({ minimum: 1, default: 1, description: "From 1: the last result's nextPage." }));
export const NumberOf = (what: string): ReturnType<typeof Type.Integer> => Type.Integer({ minimum: 1, description: `${what} number.` });
export const RunId = Type.Integer({ minimum: 1, description: 'Run id (from github_list_workflow_runs).' });
/** The state a list of pull requests or issues is filtered by. */
export const State = Type.Optional(Type.Enum(['open', 'closed', 'all'], { description: 'open (default), closed or all.' }));

/** How a paged list's description tells the model to page. */
export const PAGE_NOTE = 'Result {data, nextPage}: pass nextPage as page for more.';

export const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

/**
 * A write's hints. MCP takes a write without destructiveHint as destructive, so it is always given: true only for
 * what cannot be undone (a merge, a cancelled run).
 */
export const write = (hints: { destructive?: boolean; idempotent?: boolean } = {}): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: hints.destructive === true,
  idempotentHint: hints.idempotent === true,
  openWorldHint: true,
});

export const repoPath = (args: { owner: string; repo: string }): string => `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;

/**
 * A free-text argument as one path segment (a branch `feature/x` is `feature%2Fx`). A lone surrogate cannot be
 * percent-encoded and names no ref, so it is refused as a path that cannot be sent; the client then checks the
 * encoded segment like every path (no `..`, no `;`).
 */
export function pathSegment(value: string, what: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new ToolError(
      'invalid_path',
      `The ${what} ${JSON.stringify(value.slice(0, 200))} holds a character that cannot be sent in a path (a lone surrogate).`,
    );
  }
}

/**
 * A JSON body with the arguments that were not given left out: what policy rules match (`body.labels`) is then
 * exactly what GitHub receives, with no `undefined` keys that JSON would drop on the way.
 */
export function definedOnly(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
