import { OUTPUT_NOTE, type PassthroughProduct } from '../atlassian/passthrough-tools.js';

const API = 'Paths are relative to /2.0, which is added for you. API reference: https://developer.atlassian.com/cloud/bitbucket/rest/';
const FORMAT = `${OUTPUT_NOTE} Text endpoints (diffs, raw files) give one string.`;

/** Wording of the bb_* tools; arguments and behaviour are those of the reference Bitbucket server. */
export const BITBUCKET_TOOLS: PassthroughProduct = {
  toolPrefix: 'bb',
  label: 'Bitbucket',
  args: {
    path: 'Bitbucket Cloud API path relative to /2.0, which is prepended unless the path starts with it (e.g. "/workspaces", "/repositories/{workspace}/{repo}/pullrequests", "/repositories/{workspace}/{repo}/diff/{spec}").',
    queryExample: '{"pagelen": "10", "q": "state=\\"OPEN\\"", "sort": "-updated_on", "fields": "values.id,values.title,next"}',
    jqExample: '"values[*].{id: id, title: title, state: state}"',
    bodyExample: '{"title": "My PR", "source": {"branch": {"name": "feature"}}, "destination": {"branch": {"name": "main"}}}',
  },
  descriptions: {
    get: [
      'Read anything from the Bitbucket Cloud REST API (workspaces, repositories, pull requests, commits, pipelines, diffs, files).',
      '',
      'Keep responses small: always pass jq to select fields, and limit results with pagelen (and fields). When you do not know the shape, fetch one item (pagelen: "1") without jq first, then project. Continue a listing with the next URL inside the response.',
      '',
      'Common paths:',
      '- /workspaces, /repositories/{workspace}, /repositories/{workspace}/{repo}',
      '- /repositories/{workspace}/{repo}/pullrequests (q: state="OPEN"), /pullrequests/{id}, /pullrequests/{id}/comments, /pullrequests/{id}/diff',
      '- /repositories/{workspace}/{repo}/refs/branches, /commits, /commit/{hash}',
      '- /repositories/{workspace}/{repo}/src/{commit}/{file path}: file content (text)',
      '- /repositories/{workspace}/{repo}/diff/{source}..{destination}: a diff (text)',
      '- /repositories/{workspace}/{repo}/pipelines, /pipelines/{uuid}/steps',
      '',
      'Query parameters: pagelen, page, q (filter), sort, fields.',
      FORMAT,
      API,
    ].join('\n'),
    post: [
      'Create in Bitbucket with a POST: pull requests, comments, approvals, merges, branches.',
      '',
      'Examples:',
      '- /repositories/{workspace}/{repo}/pullrequests with body {"title": "...", "source": {"branch": {"name": "feature"}}, "destination": {"branch": {"name": "main"}}}',
      '- /repositories/{workspace}/{repo}/pullrequests/{id}/comments with body {"content": {"raw": "..."}}',
      '- /repositories/{workspace}/{repo}/pullrequests/{id}/approve or /request-changes with body {}',
      '- /repositories/{workspace}/{repo}/pullrequests/{id}/merge with body {"merge_strategy": "squash"}',
      '- /repositories/{workspace}/{repo}/refs/branches with body {"name": "feature", "target": {"hash": "main"}}',
      '',
      'Use jq to keep only what you need of the answer (e.g. "{id: id, title: title}").',
      FORMAT,
      API,
    ].join('\n'),
    put: [
      'Update Bitbucket resources with a PUT: pull requests (title, description, reviewers), comments, repository settings, branch restrictions.',
      '',
      'Examples:',
      '- /repositories/{workspace}/{repo}/pullrequests/{id} with body {"title": "...", "description": "..."}',
      '- /repositories/{workspace}/{repo}/pullrequests/{id}/comments/{comment_id} with body {"content": {"raw": "..."}}',
      '- /repositories/{workspace}/{repo} with body {"description": "..."}',
      '',
      FORMAT,
      API,
    ].join('\n'),
    patch: [
      'Send a PATCH to the Bitbucket API, for the endpoints that accept one; most Bitbucket updates are PUTs (bb_put).',
      '',
      FORMAT,
      API,
    ].join('\n'),
    delete: [
      'Delete Bitbucket resources: branches, pull request comments, approvals, repositories (irreversible).',
      '',
      'Examples: /repositories/{workspace}/{repo}/refs/branches/{name}, /repositories/{workspace}/{repo}/pullrequests/{id}/comments/{comment_id}, /repositories/{workspace}/{repo}/pullrequests/{id}/approve (withdraws an approval). Most deletes answer 204, so the text is empty. To decline a pull request, use bb_post on /pullrequests/{id}/decline.',
      '',
      FORMAT,
      API,
    ].join('\n'),
  },
};
