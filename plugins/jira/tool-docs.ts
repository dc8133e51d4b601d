import { OUTPUT_NOTE as FORMAT, type PassthroughProduct } from '../atlassian/passthrough.js';

/** Wording of the jira_* tools; arguments and behaviour are those of the reference Jira server. */
export const JIRA_TOOLS: PassthroughProduct = {
  toolPrefix: 'jira',
  toolset: 'jira.rest',
  label: 'Jira',
  args: {
    path: 'Jira REST path, e.g. "/rest/api/3/issue/PROJ-1".',
    queryExample: '{"jql": "project = PROJ", "maxResults": "20", "fields": "summary,status"}',
    jqExample: '"issues[*].{key: key, summary: fields.summary}"',
    bodyExample: '{"fields": {"summary": "Title"}}',
  },
  descriptions: {
    get: [
      'Read from the Jira REST API (v3). Keep answers small with jq, maxResults and fields.',
      'Paths: /rest/api/3/search/jql (jql, fields, maxResults, nextPageToken); /rest/api/3/issue/{key} (and /comment, /transitions); /rest/api/3/project; /rest/api/3/myself; /rest/agile/1.0/board.',
      FORMAT,
    ].join('\n'),
    post: [
      'Create in Jira: an issue (/rest/api/3/issue, body {"fields": {"project": {"key": "PROJ"}, "summary": "...", "issuetype": {"name": "Task"}}}), a comment',
      '(/rest/api/3/issue/{key}/comment, Atlassian Document Format), a transition (/rest/api/3/issue/{key}/transitions, body {"transition": {"id": "31"}}).',
      FORMAT,
    ].join('\n'),
    put: [
      'Update Jira with a PUT, e.g. issue fields (/rest/api/3/issue/{key}, body {"fields": {...}}; 204, empty text) or the assignee (/rest/api/3/issue/{key}/assignee).',
      FORMAT,
    ].join('\n'),
    patch: ['PATCH on the Jira REST API, for the few endpoints that take one; most updates are PUTs (jira_put).', FORMAT].join('\n'),
    delete: [
      'Delete in Jira, e.g. /rest/api/3/issue/{key}, /rest/api/3/issue/{key}/comment/{id}, /rest/api/3/attachment/{id}. Most answer 204: empty text.',
      FORMAT,
    ].join('\n'),
  },
};
