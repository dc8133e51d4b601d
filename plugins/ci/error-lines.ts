import { cleanTerminalOutput, collapseRepeatedLines } from '../../core/vendor/clean-log.js';

/**
 * Where a CI log says what went wrong, across the toolchains builds run: the first lines a compiler, a test
 * runner or a build tool prints about a failure, not the tail (which is mostly a summary and an exit code).
 * Specific patterns (a compiler error, a failed test) win over generic ones (`make: ***`, an exit code), which
 * are used only when nothing specific matched.
 */
const SPECIFIC: readonly RegExp[] = [
  /\berror TS\d+:/, // tsc: src/a.ts(3,7): error TS2322: / src/a.ts:3:7 - error TS2322:
  /^\s*\d+:\d+\s+error\s+/, // eslint: "  12:5  error  'x' is assigned a value but never used  no-unused-vars"
  /^[^\s:]+\.(?:c|cc|cpp|cxx|h|hpp|m|mm|go|rs|swift|java|kt|scala|cs):\d+(?::\d+)?:\s*(?:fatal )?error\b/i, // gcc/clang/javac/go vet
  /\bundefined reference to\b/, // ld
  /^error(?:\[E\d+\])?: /, // cargo / rustc
  /^\s*thread '.*' panicked at/, // cargo test
  /^test .+ \.\.\. FAILED$/, // cargo test
  /^--- FAIL: /, // go test
  /^panic: /, // go
  /^\s*[_\w./-]+_test\.go:\d+: /, // go test assertion lines
  /^FAILED [^\s]+::/, // pytest short summary
  /^E\s{2,}\S/, // pytest assertion detail
  /^_{3,} .+ _{3,}$/, // pytest failure header "____ test_x ____"
  /^\s*ERROR collecting /, // pytest collection
  /^Traceback \(most recent call last\):/, // python
  /^\s*●\s+\S/, // jest: "● suite › test"
  /^\s*FAIL\s+\S+\.(?:[jt]sx?|mjs|cjs)\b/, // jest/vitest file summary
  /^\s*\d+\) \S/, // mocha: "  1) suite"
  /\bAssertionError\b|\bAssertionFailedError\b|\bexpect\(.*\)\.\w+/, // assertion libraries
  /^\[ERROR\] (?!-+$)(?!\s*$)(?!Failed to execute goal)(?!To see the full stack)(?!Re-run Maven)(?!For more information)(?!\s*\[Help)/, // maven
  /^> Task \S+ FAILED$/, // gradle
  /^\s*Tests run: \d+, Failures: [1-9]/, // maven surefire, gradle
  /^ERROR: failed to (?:solve|build)\b|^failed to solve:/, // docker buildx
  /returned a non-zero code: \d+/, // docker (classic builder)
];

/** What a build prints when it gives up: used only when nothing specific matched. */
const GENERIC: readonly RegExp[] = [
  /^npm (?:ERR!|error) /,
  /^make(?:\[\d+\])?: \*\*\* /,
  /^##\[error\]/, // GitHub Actions
  /\bBUILD FAILURE\b|^FAILURE: Build failed/,
  /^(?:Error|ERROR|error|Fatal|FATAL)\b[:!]?/,
  /Exited with code|Process completed with exit code [1-9]|exit status [1-9]/,
];

/** GitHub's log lines start with an ISO timestamp; its `##[group]` markers only fold the view. */
const GITHUB_TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

/** A log as a reader sees it: terminal codes gone, redrawn lines collapsed, GitHub's timestamps removed. */
export function readableLog(raw: string): string[] {
  return cleanTerminalOutput(raw.replace(/^\uFEFF/, ''))
    .split('\n')
    .map((line) => line.replace(GITHUB_TIMESTAMP, '').replace(/^##\[(?:group|endgroup)\]/, ''));
}

/** Longest line kept in an excerpt: a minified bundle or a JSON dump on one line says nothing more past this. */
const MAX_LINE_CHARS = 240;

export interface ErrorExcerpt {
  /** 1-based line number of the matched line in the readable log. */
  line: number;
  /** The lines around it, at most contextLines either side, each cut to MAX_LINE_CHARS. */
  text: string;
}

export interface ExcerptOptions {
  contextLines: number;
  /** Most excerpts returned (windows that overlap are merged first). */
  maxExcerpts: number;
}

/**
 * The lines around the first errors of a log: specific matches first (in log order), generic ones only when
 * none matched, the last lines when nothing matched at all. Overlapping windows are merged.
 */
export function errorExcerpts(lines: readonly string[], options: ExcerptOptions): ErrorExcerpt[] {
  const matching = (patterns: readonly RegExp[]): number[] => lines.flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [i] : []));
  let hits = matching(SPECIFIC);
  if (hits.length === 0) hits = matching(GENERIC);
  const { contextLines: n, maxExcerpts } = options;
  if (hits.length === 0) {
    const from = Math.max(0, lines.length - (2 * n + 1));
    return lines.length === 0 ? [] : [{ line: from + 1, text: cut(lines.slice(from)) }];
  }
  const windows: Array<{ first: number; from: number; to: number }> = [];
  for (const i of hits) {
    const last = windows[windows.length - 1];
    // A run of errors (200 tsc errors in a row) grows one window only so far: the first ones are the cause.
    if (last !== undefined && i <= last.to) continue;
    if (last !== undefined && i - n <= last.to + 1 && i + n - last.from <= 4 * n) {
      last.to = Math.min(lines.length - 1, i + n);
      continue;
    }
    if (windows.length === maxExcerpts) break;
    windows.push({ first: i, from: Math.max(0, i - n), to: Math.min(lines.length - 1, i + n) });
  }
  return windows.map((w) => ({ line: w.first + 1, text: cut(lines.slice(w.from, w.to + 1)) }));
}

/** An excerpt's text: long lines cut, a run of one line (a retry loop) shown once with its count. */
const cut = (lines: readonly string[]): string =>
  collapseRepeatedLines(lines.map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l)).join('\n')).replace(/^\n+|\n+$/g, '');
