import { nextPageFromLink, positivePage } from 'mcp-devtools/plugin';

/**
 * The page to request next: GitLab's `X-Next-Page` header (empty on the last page), else the `rel="next"`
 * link, which GitLab also sends when it leaves out the X- headers (lists of more than 10,000 items).
 */
export function nextPageOf(headers: Headers): number | null {
  return positivePage(headers.get('x-next-page')) ?? nextPageFromLink(headers.get('link'));
}
