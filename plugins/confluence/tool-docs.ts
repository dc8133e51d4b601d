import { OUTPUT_NOTE as FORMAT, type PassthroughProduct } from '../atlassian/passthrough-tools.js';

const API = 'API reference: https://developer.atlassian.com/cloud/confluence/rest/v2/';

/** Wording of the conf_* tools; arguments and behaviour are those of the reference Confluence server. */
export const CONFLUENCE_TOOLS: PassthroughProduct = {
  toolPrefix: 'conf',
  label: 'Confluence',
  args: {
    path: 'Confluence REST API path, starting with /wiki/ (e.g. "/wiki/api/v2/spaces", "/wiki/api/v2/pages/123456", "/wiki/rest/api/search").',
    queryExample: '{"limit": "10", "space-id": "123456", "body-format": "storage"}',
    jqExample: '"results[*].{id: id, title: title, status: status}"',
    bodyExample: '{"spaceId": "123456", "status": "current", "title": "Page title", "body": {"representation": "storage", "value": "<p>Text</p>"}}',
  },
  descriptions: {
    get: [
      'Read anything from the Confluence REST API (spaces, pages, blog posts, comments, search).',
      '',
      'Keep responses small: always pass jq to select fields, and limit results with limit. When you do not know the shape, fetch one item (limit: "1") without jq first, then project. Continue a listing with the cursor in _links.next.',
      '',
      'Common paths:',
      '- /wiki/api/v2/spaces, /wiki/api/v2/spaces/{id}: spaces',
      '- /wiki/api/v2/pages (queryParams space-id), /wiki/api/v2/pages/{id} (body-format: storage, atlas_doc_format or view)',
      '- /wiki/api/v2/pages/{id}/children, /labels, /footer-comments, /inline-comments',
      '- /wiki/api/v2/blogposts, /wiki/api/v2/blogposts/{id}',
      '- /wiki/rest/api/search: CQL search (queryParams cql, e.g. "type=page AND space=DEV AND text~\\"release\\"")',
      '',
      FORMAT,
      API,
    ].join('\n'),
    post: [
      'Create in Confluence with a POST: pages, blog posts, comments.',
      '',
      'Examples:',
      '- /wiki/api/v2/pages with body {"spaceId": "123456", "status": "current", "title": "...", "parentId": "789", "body": {"representation": "storage", "value": "<p>...</p>"}}',
      '- /wiki/api/v2/blogposts with the same shape',
      '- /wiki/api/v2/footer-comments with body {"pageId": "789", "body": {"representation": "storage", "value": "<p>...</p>"}}',
      '',
      'Use jq to keep only what you need of the answer (e.g. "{id: id, title: title}").',
      FORMAT,
      API,
    ].join('\n'),
    put: [
      'Update Confluence content with a PUT (a full replacement).',
      '',
      'Example: /wiki/api/v2/pages/{id} with body {"id": "789", "status": "current", "title": "...", "body": {"representation": "storage", "value": "<p>...</p>"}, "version": {"number": N}} where N is the current version number plus one (read it with conf_get first).',
      '',
      FORMAT,
      API,
    ].join('\n'),
    patch: [
      'Send a PATCH to the Confluence REST API, for the endpoints that accept one; most Confluence updates are PUTs (conf_put).',
      '',
      FORMAT,
      API,
    ].join('\n'),
    delete: [
      'Delete Confluence content: pages, blog posts, comments, attachments, labels.',
      '',
      'Examples: /wiki/api/v2/pages/{id} (moves it to the trash; queryParams purge: "true" removes a trashed page), /wiki/api/v2/footer-comments/{id}, /wiki/api/v2/attachments/{id}. Most deletes answer 204, so the text is empty.',
      '',
      FORMAT,
      API,
    ].join('\n'),
  },
};
