/**
 * Policy globs, as in IAM resource patterns: `*` matches any run of characters (slashes included), `?` one
 * character; everything else is literal. Matching ignores case, because the vendors do for most names
 * (GitHub owners and repositories, Jira keys): a deny rule must not be dodged by writing `ACME` for `acme`.
 * A list of patterns compiles to one anchored regular expression.
 */
export function compileGlobs(patterns: readonly string[]): (value: string) => boolean {
  const source = patterns.map(globSource).join('|');
  const regex = new RegExp(`^(?:${source})$`, 'is');
  return (value) => regex.test(value);
}

function globSource(pattern: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else out += ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return out;
}
