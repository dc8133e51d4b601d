import { OUTPUT_NOTE as FORMAT, type PassthroughProduct } from '../atlassian/passthrough.js';

/** Wording of the conf_* tools; arguments and behaviour are those of the reference Confluence server. */
export const CONFLUENCE_TOOLS: PassthroughProduct = {
  toolPrefix: 'conf',
  toolset: 'confluence.rest',
  label: 'Confluence',
  args: {
    path: 'Confluence REST path, e.g. "/wiki/api/v2/pages/123456".',
    queryExample: '{"limit": "10", "body-format": "storage"}',
    jqExample: '"results[*].{id: id, title: title}"',
    bodyExample: '{"spaceId": "123456", "title": "Page", "body": {"representation": "storage", "value": "<p>Text</p>"}}',
  },
  descriptions: {
    get: [
      'Read from the Confluence REST API. Keep answers small with jq and limit; continue with the cursor in _links.next.',
      'Paths: /wiki/api/v2/spaces; /wiki/api/v2/pages (space-id), /wiki/api/v2/pages/{id} (body-format), its /children and /footer-comments; /wiki/api/v2/blogposts; /wiki/rest/api/search (cql).',
      FORMAT,
    ].join('\n'),
    post: [
      'Create in Confluence: a page or blog post (/wiki/api/v2/pages, /wiki/api/v2/blogposts), a comment (/wiki/api/v2/footer-comments, body {"pageId": "789", "body": {...}}).',
      FORMAT,
    ].join('\n'),
    put: [
      'Replace Confluence content with a PUT, e.g. /wiki/api/v2/pages/{id} with the whole page and "version": {"number": current + 1} (read it with conf_get first).',
      FORMAT,
    ].join('\n'),
    patch: ['PATCH on the Confluence REST API, for the endpoints that take one; most updates are PUTs (conf_put).', FORMAT].join('\n'),
    delete: [
      'Delete Confluence content, e.g. /wiki/api/v2/pages/{id} (to the trash; purge: "true" removes a trashed page), /wiki/api/v2/attachments/{id}. Most answer 204: empty text.',
      FORMAT,
    ].join('\n'),
  },
};
