import { OUTPUT_NOTE, type PassthroughProduct } from '../atlassian/passthrough.js';

const FORMAT = `${OUTPUT_NOTE} Text endpoints (diffs, raw files) give one string.`;
const REPO = '/repositories/{workspace}/{repo}';

/** Wording of the bb_* tools; arguments and behaviour are those of the reference Bitbucket server. */
export const BITBUCKET_TOOLS: PassthroughProduct = {
  toolPrefix: 'bb',
  toolset: 'bitbucket.repos',
  label: 'Bitbucket',
  args: {
    path: `Bitbucket Cloud path; /2.0 is prepended unless present, e.g. "${REPO}/pullrequests".`,
    queryExample: '{"pagelen": "10", "q": "state=\\"OPEN\\""}',
    jqExample: '"values[*].{id: id, title: title}"',
    bodyExample: '{"title": "My PR", "source": {"branch": {"name": "feature"}}}',
  },
  descriptions: {
    get: [
      'Read from the Bitbucket Cloud API. Keep answers small with jq, pagelen and fields; continue with the next URL in the answer.',
      `Paths: /workspaces; ${REPO}; ${REPO}/pullrequests (q), /pullrequests/{id}, its /comments and /diff; ${REPO}/refs/branches, /commits; ${REPO}/src/{commit}/{file}; ${REPO}/pipelines.`,
      FORMAT,
    ].join('\n'),
    post: [
      `Create in Bitbucket: a pull request (${REPO}/pullrequests, body {"title", "source", "destination"}), a comment (/pullrequests/{id}/comments, body {"content": {"raw": "..."}}),`,
      'an approval (/pullrequests/{id}/approve), a merge (/pullrequests/{id}/merge), a branch (/refs/branches).',
      FORMAT,
    ].join('\n'),
    put: [`Update Bitbucket with a PUT, e.g. a pull request (${REPO}/pullrequests/{id}, body {"title": "..."}) or a comment.`, FORMAT].join('\n'),
    patch: ['PATCH on the Bitbucket API, for the endpoints that take one; most updates are PUTs (bb_put).', FORMAT].join('\n'),
    delete: [
      `Delete in Bitbucket (irreversible), e.g. a branch (${REPO}/refs/branches/{name}), a comment, an approval (/pullrequests/{id}/approve). Most answer 204: empty text. Decline a pull request with bb_post on /pullrequests/{id}/decline.`,
      FORMAT,
    ].join('\n'),
  },
};
