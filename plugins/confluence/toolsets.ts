import type { ToolsetSpec } from '../../core/plugin/contract.js';

/** Confluence's toolsets: the typed page tools by default; the REST passthrough on request. */
export const CONFLUENCE_TOOLSETS: Record<string, ToolsetSpec> = {
  'confluence.pages': { description: 'Search with CQL, read pages in Markdown, create and update pages, comment on them.' },
  'confluence.rest': { description: "Confluence's REST API as it is: GET, POST, PUT, PATCH and DELETE on any path.", default: false },
};
