import Type, { type Static } from 'typebox';
import { ToolError } from '../../core/errors/tool-error.js';
import { safeApiPath } from '../../core/http/path-guards.js';
import { defineTool } from '../../core/plugin/define-tool.js';
import { renderingArgs } from '../../core/schema/common-args.js';
import { PagedEnvelope } from '../../core/schema/envelopes.js';
import { contentBytes, fileText, listingText, pointerText, type ContentEntry } from './file-contents.js';
import { page, type GithubDeps } from './github-deps.js';
import { Owner, Page, PAGE_NOTE, PerPage, READ, Repo, repoPath } from './shared-args.js';
import { fileLabel, VISIBILITY_LOOKUP } from './provenance.js';

// Repositories: a file or directory, and the repositories of an organization or user.

export const FileArgs = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    path: Type.String({ description: 'File or directory path in the repository, e.g. "src/index.ts"; "" for the root.' }),
    ref: Type.Optional(Type.String({ minLength: 1, description: 'Branch, tag or commit SHA (default: the default branch).' })),
  },
  { additionalProperties: false },
);

export const ListReposArgs = Type.Object(
  {
    owner: Owner,
    type: Type.Optional(
      Type.Enum(['all', 'public', 'private', 'forks', 'sources', 'member', 'owner'], {
        description: 'Organizations: all, public, private, forks, sources, member; users: all, owner, member.',
      }),
    ),
    perPage: PerPage,
    page: Page,
    ...renderingArgs,
  },
  { additionalProperties: false },
);

export const GET_FILE = defineTool({
  name: 'github_get_file',
  toolset: 'github.repos',
  title: 'Read a file from a GitHub repository',
  description:
    "A file's text, or a directory's listing. A binary file, or one too long to show, is saved as an artifact the result names (read it with artifact_read).",
  annotations: READ,
  input: FileArgs,
  savesArtifacts: true,
  provenance: { labels: true },
  further: [VISIBILITY_LOOKUP],
  route: (args: Static<typeof FileArgs>) => ({ method: 'GET', path: contentsPath(args), query: { ref: args.ref } }),
  handler: async (ctx, github: GithubDeps) => {
    const args = ctx.args;
    const where = `${args.path.replace(/^\/+|\/+$/g, '') || '/'} of ${args.owner}/${args.repo} at ${args.ref ?? 'the default branch'}`;
    const body = (await github.upstream.send(ctx, ctx.route)).body as ContentEntry | ContentEntry[];
    const provenance = await fileLabel(github, ctx, args);
    if (Array.isArray(body)) return { text: listingText(where, body), provenance };
    if (body === null || typeof body !== 'object')
      throw new ToolError('upstream_invalid_body', `GitHub answered with neither a file nor a directory for ${where}.`);
    if (body.type !== 'file') return { text: pointerText(where, body), provenance };
    // Above 1 MB the contents API leaves `content` empty: the raw media type gives the bytes.
    const bytes = contentBytes(body) ?? ((await github.raw.send(ctx, ctx.route, { binary: true })).body as Buffer);
    return {
      text: await fileText(ctx, github.artifacts, { where, entry: body, bytes: Buffer.from(github.scrub(bytes.toString('latin1')), 'latin1') }),
      provenance,
    };
  },
});

export const LIST_REPOSITORIES = defineTool({
  name: 'github_list_repositories',
  toolset: 'github.repos',
  title: 'List GitHub repositories',
  description: `List the repositories of an organization or user. ${PAGE_NOTE} Project with jq, e.g. "[*].{name: name, private: private, pushed: pushed_at}".`,
  annotations: READ,
  input: ListReposArgs,
  envelope: PagedEnvelope,
  // "owner" is a type only users' lists have: such a list is a user's, asked for as one.
  route: (args: Static<typeof ListReposArgs>) => ({
    method: 'GET',
    path: `/${args.type === 'owner' ? 'users' : 'orgs'}/${encodeURIComponent(args.owner)}/repos`,
    query: { type: args.type, per_page: args.perPage, page: args.page },
  }),
  // An owner that is no organization (GitHub answers 404) is listed again as a user.
  further: (args: Static<typeof ListReposArgs>) => [{ method: 'GET', path: `/users/${encodeURIComponent(args.owner)}/repos` }],
  handler: async (ctx, github: GithubDeps) => {
    try {
      return await page(github, ctx);
    } catch (error) {
      // The owner is not an organization: list it as a user (GitHub answers 404 for /orgs/{user}).
      if ((error as { status?: number }).status !== 404 || !ctx.route.path.startsWith('/orgs/')) throw error;
      const { owner, type } = ctx.args;
      if (type !== undefined && ORGANIZATION_ONLY_TYPES.has(type))
        throw new ToolError(
          'invalid_arguments',
          `${owner} is not an organization, so type "${type}" does not apply: a user's repositories are listed by type all, owner or member.`,
        );
      return page(github, ctx, { ...ctx.route, path: `/users/${encodeURIComponent(owner)}/repos` });
    }
  },
});

/** The types only organizations' repository lists take (a user's: all, owner, member). */
const ORGANIZATION_ONLY_TYPES: ReadonlySet<string> = new Set(['public', 'private', 'forks', 'sources']);

/**
 * `/repos/{owner}/{repo}/contents/{path}`, each segment encoded. The path is checked first with the check every
 * API path gets (no `.` or `..` in any encoding, no backslash, no control character), so it cannot climb out of
 * the repository's contents; the client checks the whole path again before sending.
 */
function contentsPath(args: { owner: string; repo: string; path: string }): string {
  const inRepo = args.path.replace(/^\/+|\/+$/g, '');
  if (inRepo === '') return `${repoPath(args)}/contents`;
  try {
    safeApiPath(`/${inRepo}`, 'GitHub');
    // A lone surrogate cannot be percent-encoded (encodeURIComponent throws): no file has such a name.
    return `${repoPath(args)}/contents/${inRepo.split('/').map(encodeURIComponent).join('/')}`;
  } catch {
    throw new ToolError(
      'invalid_path',
      `The path ${JSON.stringify(args.path.slice(0, 200))} does not stay inside the repository (no "." or ".." segments, backslashes, control characters or "#", in any encoding): give one such as "src/index.ts".`,
    );
  }
}
