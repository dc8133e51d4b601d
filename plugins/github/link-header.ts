/**
 * The page to request next, read from GitHub's `Link` header: the `page` query value of the `rel="next"` URL,
 * or null when there is none (the last page, or a list that fits one page).
 *
 * Only the page number is taken, never the URL: GitHub's next URLs often use a different path
 * (`/repositories/{id}/actions/runs`) and host than the request, and following them would leave the path
 * the tool (and policy) decided on.
 *
 * Example: `<https://api.github.com/repositories/1296269/actions/runs?per_page=30&page=2>; rel="next"` -> 2.
 */
export function nextPageFromLink(header: string | null): number | null {
  if (header === null) return null;
  for (const link of parseLinkHeader(header)) {
    if (!link.rels.includes('next')) continue;
    let url: URL;
    try {
      url = new URL(link.target, 'https://api.github.com');
    } catch {
      return null;
    }
    const page = url.searchParams.get('page');
    return page !== null && /^[1-9]\d*$/.test(page) && Number.isSafeInteger(Number(page)) ? Number(page) : null;
  }
  return null;
}

interface LinkValue {
  target: string;
  rels: string[];
}

/** RFC 8288 link values: `<target>` then `;`-separated parameters; commas inside `<...>` do not split. */
function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = [];
  const pattern = /<([^>]*)>([^<]*)/g;
  for (let match = pattern.exec(header); match !== null; match = pattern.exec(header)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target: match[1] ?? '', rels });
  }
  return links;
}
