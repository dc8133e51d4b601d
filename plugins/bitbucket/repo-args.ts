import Type from 'typebox';
import type { ToolAnnotations } from '../../core/plugin/contract.js';

// A slug, or a {uuid} as Bitbucket also accepts: nothing that could add a path segment or a query (and short,
// since every tool's schema is read by the model).
export const Slug = (what: string): ReturnType<typeof Type.String> => Type.String({ pattern: '^[\\w.{}-]{1,100}$', description: `${what} slug or {uuid}.` });

export const Workspace = Slug('Workspace');
export const RepoSlug = Slug('Repository');

/** A Bitbucket UUID as the API shows it (`{...}`); the braces may be left out. */
export const Uuid = (description: string): ReturnType<typeof Type.String> => Type.String({ pattern: '^\\{?[0-9a-fA-F-]{36}\\}?$', description });

export const PullRequestId = Type.Integer({ minimum: 1, description: 'Pull request id.' });

export const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

/** `/repositories/{workspace}/{repo_slug}`, each part encoded (a `{uuid}` travels as `%7B...%7D`). */
export const repoPath = (args: { workspace: string; repoSlug: string }): string =>
  `/repositories/${encodeURIComponent(args.workspace)}/${encodeURIComponent(args.repoSlug)}`;

/** A UUID in the braces Bitbucket's paths want, encoded for a path segment. */
export const uuidSegment = (uuid: string): string => encodeURIComponent(`{${uuid.replace(/^\{|\}$/g, '')}}`);

/** A pipeline's API path. */
export const pipelinePath = (args: { workspace: string; repoSlug: string; pipelineUuid: string }): string =>
  `${repoPath(args)}/pipelines/${uuidSegment(args.pipelineUuid)}`;
