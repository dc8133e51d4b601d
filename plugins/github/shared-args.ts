import Type from 'typebox';
import type { ToolAnnotations } from '../../core/plugin/contract.js';

// Names GitHub accepts for owners and repositories; anything else could only make a different path.
export const Owner = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'User or organization.' });
export const Repo = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'Repository name.' });
export const PerPage = Type.Integer({ minimum: 1, maximum: 100, default: 30, description: 'Page size, 1-100.' });
export const Page = Type.Integer({ minimum: 1, default: 1, description: 'Page, from 1: the nextPage of the previous result.' });

export const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

export const repoPath = (args: { owner: string; repo: string }): string => `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;
