import { OUTPUT_NOTE as FORMAT, type PassthroughProduct } from '../atlassian/passthrough-tools.js';

const API = 'API reference: https://developer.atlassian.com/cloud/jira/platform/rest/v3/';

/** Wording of the jira_* tools; arguments and behaviour are those of the reference Jira server. */
export const JIRA_TOOLS: PassthroughProduct = {
  toolPrefix: 'jira',
  label: 'Jira',
  args: {
    path: 'Jira REST API path, starting with /rest/ (e.g. "/rest/api/3/search/jql", "/rest/api/3/issue/PROJ-123", "/rest/agile/1.0/board").',
    queryExample: '{"jql": "project = PROJ ORDER BY updated DESC", "maxResults": "20", "fields": "summary,status,assignee"}',
    jqExample: '"issues[*].{key: key, summary: fields.summary, status: fields.status.name}"',
    bodyExample: '{"fields": {"project": {"key": "PROJ"}, "summary": "Title", "issuetype": {"name": "Task"}}}',
  },
  descriptions: {
    get: [
      'Read anything from the Jira REST API (issues, searches, projects, users, boards).',
      '',
      'Keep responses small: always pass jq to select fields, and limit results with maxResults (and fields for issue searches). When you do not know the shape, fetch one item (maxResults: "1") without jq first, then project.',
      '',
      'Common paths:',
      '- /rest/api/3/search/jql: search issues (queryParams jql, fields, maxResults, nextPageToken); /rest/api/3/search is retired',
      '- /rest/api/3/issue/{key}: one issue; /comment, /worklog, /transitions below it',
      '- /rest/api/3/project, /rest/api/3/project/{key}: projects',
      '- /rest/api/3/myself, /rest/api/3/user/search?query=...: users',
      '- /rest/api/3/status, /rest/api/3/issuetype, /rest/api/3/priority, /rest/api/3/field: metadata',
      '- /rest/agile/1.0/board, /rest/agile/1.0/board/{id}/sprint: boards and sprints',
      '',
      FORMAT,
      API,
    ].join('\n'),
    post: [
      'Create in Jira with a POST: issues, comments, worklogs, transitions, issue links.',
      '',
      'Examples:',
      '- /rest/api/3/issue with body {"fields": {"project": {"key": "PROJ"}, "summary": "...", "issuetype": {"name": "Task"}}}',
      '- /rest/api/3/issue/{key}/comment with body {"body": {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": "..."}]}]}}',
      '- /rest/api/3/issue/{key}/transitions with body {"transition": {"id": "31"}} (list ids with jira_get on the same path)',
      '- /rest/api/3/search/jql also accepts POST with the search in the body',
      '',
      'Rich text (descriptions, comments) is Atlassian Document Format in API v3. Use jq to keep only what you need of the answer (e.g. "{key: key, id: id}").',
      FORMAT,
      API,
    ].join('\n'),
    put: [
      'Update Jira resources with a PUT: issue fields, assignee, issue properties, projects.',
      '',
      'Examples:',
      '- /rest/api/3/issue/{key} with body {"fields": {"summary": "New title"}} (Jira answers 204: the text is empty)',
      '- /rest/api/3/issue/{key}/assignee with body {"accountId": "..."}',
      '- /rest/api/3/issue/{key}/properties/{propertyKey} with the property value as body',
      '',
      FORMAT,
      API,
    ].join('\n'),
    patch: [
      'Send a PATCH to the Jira REST API, for the few endpoints that accept one; most Jira updates are PUTs (jira_put).',
      '',
      FORMAT,
      API,
    ].join('\n'),
    delete: [
      'Delete Jira resources: issues (queryParams deleteSubtasks: "true" for subtasks), comments, worklogs, attachments, watchers (queryParams accountId).',
      '',
      'Examples: /rest/api/3/issue/{key}, /rest/api/3/issue/{key}/comment/{id}, /rest/api/3/attachment/{id}. Most deletes answer 204, so the text is empty.',
      '',
      FORMAT,
      API,
    ].join('\n'),
  },
};
