/** One link of an RFC 8288 `Link` header: its target and relation types (lower-cased). */
export interface LinkValue {
  target: string;
  rels: string[];
}

/**
 * The links of a `Link` header: `<target>` then `;`-separated parameters, links separated by commas. Commas
 * inside `<...>` do not split, `rel` may be quoted or bare and may hold several space-separated types.
 */
export function parseLinkHeader(header: string | null | undefined): LinkValue[] {
  if (header === null || header === undefined) return [];
  const links: LinkValue[] = [];
  const pattern = /<([^>]*)>([^<]*)/g;
  for (let match = pattern.exec(header); match !== null; match = pattern.exec(header)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target: match[1] ?? '', rels });
  }
  return links;
}

/**
 * The page to request next, read from a `Link` header (GitHub, GitLab and most REST APIs that page by
 * number): the `param` query value (default `page`) of the `rel="next"` URL, or null when there is no next
 * link or it carries no positive integer page.
 *
 * Only the page number is taken, never the URL: next URLs often name another path or host than the request
 * (GitHub's `/repositories/{id}/...`), and following them would leave the path the tool and policy decided on.
 *
 * Example: `<https://gitlab.example.com/api/v4/projects/8/pipelines?page=3&per_page=20>; rel="next"` -> 3.
 */
export function nextPageFromLink(header: string | null | undefined, param = 'page'): number | null {
  const next = parseLinkHeader(header).find((link) => link.rels.includes('next'));
  if (next === undefined) return null;
  let url: URL;
  try {
    url = new URL(next.target, 'http://relative.invalid');
  } catch {
    return null;
  }
  return positivePage(url.searchParams.get(param));
}

/** A page number as APIs send it in headers and query strings: a positive safe integer, or null. */
export function positivePage(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  return /^[1-9]\d*$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}
