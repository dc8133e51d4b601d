import Type from 'typebox';
import type { ToolAnnotations } from '../../core/plugin/contract.js';

// Names GitHub accepts for owners and repositories; anything else could only make a different path.
export const Owner = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'Repository owner (user or organization), e.g. "octo-org".' });
export const Repo = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'Repository name without the owner, e.g. "octo-repo".' });
export const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 30, description: 'Results per page, 1-100 (default 30).' });
export const Page = Type.Integer({ minimum: 1, default: 1, description: 'Page to fetch, from 1 (default 1). Pass the nextPage of the previous result.' });

export const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

export const repoPath = (args: { owner: string; repo: string }): string => `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;
