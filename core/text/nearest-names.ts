/**
 * The known names closest to a mistyped one, for "did you mean" hints: edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours), plus names that contain the typed text or are contained in it
 * (`jira` for `jira_get`). Only reasonably close names are offered; an unrelated word gets none.
 */
export function nearestNames(typed: string, known: Iterable<string>, max = 3): string[] {
  const wanted = typed.toLowerCase();
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of new Set(known)) {
    const candidate = name.toLowerCase();
    const distance = editDistance(wanted, candidate);
    // One edit per four characters: "gthub" finds github, "gitlab" does not.
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 4));
    const related = wanted.length >= 3 && (candidate.includes(wanted) || wanted.includes(candidate));
    if (distance <= limit || related) scored.push({ name, distance: related ? Math.min(distance, limit) : distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

/** " Did you mean a or b?" or the empty string: ready to append to a message. */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const near = nearestNames(typed, known);
  if (near.length === 0) return '';
  const quoted = near.map((n) => `"${n}"`);
  return ` Did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}?`;
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
