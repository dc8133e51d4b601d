/**
 * One link of an RFC 8288 `Link` header: its target, relation types (lower-cased) and every parameter by its
 * lower-cased name, unquoted (Sentry's `results="false"` and `cursor="..."`, `title`, `type`).
 */
export interface LinkValue {
  target: string;
  rels: string[];
  params: Record<string, string>;
}

/** `; name="quoted \"value\""`, `; name=token` or a bare `; name`. */
const LINK_PARAM = /;\s*([^\s=;,"]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g;

/**
 * The links of a `Link` header: `<target>` then `;`-separated parameters, links separated by commas. Commas
 * inside `<...>` or inside a quoted value do not split, `rel` may be quoted or bare and may hold several
 * space-separated types, and every parameter is kept (the first of a repeated one, as RFC 8288 says).
 */
export function parseLinkHeader(header: string | null | undefined): LinkValue[] {
  if (header === null || header === undefined) return [];
  const links: LinkValue[] = [];
  const pattern = /<([^>]*)>((?:[^<"]|"(?:[^"\\]|\\.)*")*)/g;
  for (let match = pattern.exec(header); match !== null; match = pattern.exec(header)) {
    const params: Record<string, string> = {};
    for (const [, name = '', quoted, bare] of (match[2] ?? '').matchAll(LINK_PARAM)) {
      const key = name.toLowerCase();
      if (!Object.prototype.hasOwnProperty.call(params, key)) params[key] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (bare ?? '');
    }
    const rels = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target: match[1] ?? '', rels, params });
  }
  return links;
}

/** The link with relation type `rel` (`next`, `prev`, `last`), or undefined. */
export function findLink(header: string | null | undefined, rel: string): LinkValue | undefined {
  return parseLinkHeader(header).find((link) => link.rels.includes(rel.toLowerCase()));
}

/**
 * The cursor to request next, read from a `Link` header (Sentry, and most APIs that page by cursor): the
 * `rel="next"` link's `cursor` parameter (named by `param`) when it has one, else that query parameter of its
 * target. Null when there is no next link, when it says there are no results there (`results="false"`,
 * Sentry's way of marking the last page), or when it carries no cursor. As for pages, only the cursor is
 * taken, never the URL: the next request is the tool's own route with the cursor, decided like any call.
 *
 * Example: `<https://sentry.io/api/0/projects/acme/web/issues/?&cursor=1700:100:0>; rel="next"; results="true"; cursor="1700:100:0"` -> `1700:100:0`.
 */
export function nextCursorFromLink(header: string | null | undefined, param = 'cursor'): string | null {
  const next = findLink(header, 'next');
  if (next === undefined || next.params.results?.toLowerCase() === 'false') return null;
  const own = next.params[param.toLowerCase()];
  if (own !== undefined && own !== '') return own;
  try {
    const value = new URL(next.target, 'http://relative.invalid').searchParams.get(param);
    return value === null || value === '' ? null : value;
  } catch {
    return null;
  }
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
  const next = findLink(header, 'next');
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
