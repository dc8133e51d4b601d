/*
 * A pull request as GitHub answers it is some 22,500 characters, most of them the head and base repositories
 * whole and a URL for every relation. A default read keeps what agents use (the shape peers serve: state,
 * branches, people, counts), a few thousand characters; `fields: "all"` or a `jq` projection reads the rest.
 */

type Json = Record<string, unknown>;

const object = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const login = (user: unknown): unknown => object(user).login ?? null;
const list = (value: unknown, key: string): unknown[] => (Array.isArray(value) ? value.map((item) => object(item)[key] ?? null) : []);

/** A branch end of a pull request: its ref, commit and repository's name. */
function end(value: unknown): Json {
  const branch = object(value);
  return { ref: branch.ref ?? null, sha: branch.sha ?? null, repo: object(branch.repo).full_name ?? null };
}

/** The fields agents use of a pull request, under GitHub's own names (people as logins, labels as names). */
export function compactPullRequest(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const pr = body as Json;
  return {
    number: pr.number ?? null,
    title: pr.title ?? null,
    state: pr.state ?? null,
    draft: pr.draft ?? null,
    merged: pr.merged ?? null,
    mergeable: pr.mergeable ?? null,
    mergeable_state: pr.mergeable_state ?? null,
    html_url: pr.html_url ?? null,
    user: login(pr.user),
    author_association: pr.author_association ?? null,
    body: pr.body ?? null,
    labels: list(pr.labels, 'name'),
    assignees: list(pr.assignees, 'login'),
    requested_reviewers: list(pr.requested_reviewers, 'login'),
    requested_teams: list(pr.requested_teams, 'slug'),
    milestone: object(pr.milestone).title ?? null,
    head: end(pr.head),
    base: end(pr.base),
    created_at: pr.created_at ?? null,
    updated_at: pr.updated_at ?? null,
    closed_at: pr.closed_at ?? null,
    merged_at: pr.merged_at ?? null,
    merged_by: login(pr.merged_by),
    merge_commit_sha: pr.merge_commit_sha ?? null,
    auto_merge: pr.auto_merge === null || pr.auto_merge === undefined ? null : (object(pr.auto_merge).merge_method ?? true),
    comments: pr.comments ?? null,
    review_comments: pr.review_comments ?? null,
    commits: pr.commits ?? null,
    additions: pr.additions ?? null,
    deletions: pr.deletions ?? null,
    changed_files: pr.changed_files ?? null,
  };
}
