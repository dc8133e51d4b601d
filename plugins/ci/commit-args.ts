import Type from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import type { ToolAnnotations } from '../../core/plugin/contract.js';
import type { FurtherRoute } from '../../core/plugin/tool-spec.js';

// The arguments both ci tools take to name a commit, and what they may send.

export const commitArgs = {
  repo: Type.String({ pattern: '^[\\w.-]+/[\\w.-]+$', maxLength: 201, description: 'owner/repo or workspace/repo.' }),
  ref: Type.String({ minLength: 1, maxLength: 255, description: 'Commit SHA, branch, tag, or #N for pull request N.' }),
  host: Type.Optional(Type.Enum(['github', 'bitbucket'], { description: 'Default github when configured.' })),
  contextLines: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, default: 6, description: 'Log lines around each error.' })),
};

/** Most excerpts of one log. */
export const MAX_EXCERPTS = 3;

export const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

/**
 * Reads on the three vendors' APIs and on the hosts they hand out for logs (signed storage URLs): which host
 * a report reaches depends on which CI a commit's checks name, so the declaration is by method. Each request
 * still passes the path check and the policy decision on its own method, path and host.
 */
export const CI_READS: readonly FurtherRoute[] = [{ method: 'GET', host: '*', path: '/**' }];

/**
 * A ref as one path segment (a branch `feature/x` is `feature%2Fx`). A lone surrogate cannot be percent-encoded
 * and names no ref: refused as a path that cannot be sent, before any request.
 */
export function refSegment(ref: string): string {
  try {
    return encodeURIComponent(ref);
  } catch {
    throw new ToolError('invalid_path', `The ref ${JSON.stringify(ref.slice(0, 100))} holds a character that cannot be sent in a path (a lone surrogate).`);
  }
}
