/**
 * What a request names, as its vendor's allowlist decides it: a resource (`acme/app`, `PLAT`, `gh/acme/app`), a
 * container whose listing is read (a Bitbucket workspace: allowed when some pattern's first part matches it), or
 * something named in a spelling the list cannot decide (a repository by id), which is refused under a list.
 */
export type Named =
  | { readonly kind: 'resource'; readonly value: string }
  | { readonly kind: 'container'; readonly value: string }
  | { readonly kind: 'undecidable'; readonly what: string };
