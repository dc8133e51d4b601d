import { expect } from 'chai';
import fc from 'fast-check';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expectUsableResult, type SchemaOracle } from './call-oracle.js';
import { stringsByProperty } from './fuzz-strings.js';
import { mutatedArgs, validValue, type JsonSchema } from './schema-arbitrary.js';

/** Cases per tool: the CI default, or more on demand (`HARDENING_RUNS=20000 npm run test:hardening:long`). */
export function hardeningRuns(variable: string, ciDefault: number): number {
  const given = Number(process.env[variable]);
  return Number.isInteger(given) && given > 0 ? given : ciDefault;
}

/**
 * fast-check parameters: `runs` cases, or the one failing case a report named, replayed with
 * `HARDENING_SEED=<seed> HARDENING_PATH=<path>` (and `--grep` for the tool).
 */
export function replayable(runs: number): fc.Parameters<unknown> {
  const seed = Number(process.env.HARDENING_SEED);
  const path = process.env.HARDENING_PATH;
  if (!Number.isInteger(seed) || path === undefined) return { numRuns: runs, endOnFailure: true };
  return { numRuns: runs, endOnFailure: true, seed, path };
}

/** One generated call: arguments the schema accepts (full of hostile strings), or ones broken on purpose. */
export interface GeneratedCall {
  args: unknown;
  /** How the arguments were broken, when they were. */
  mutation?: string;
}

export function generatedCall(schema: JsonSchema, evilHost: string): fc.Arbitrary<GeneratedCall> {
  const options = { stringFor: stringsByProperty(evilHost) };
  return fc.oneof(
    validValue(schema, options).map((args) => printable({ args })),
    mutatedArgs(schema, options).map(({ args, mutation }) =>
      printable({ args, mutation: `${mutation.kind}${'property' in mutation ? ` ${JSON.stringify(mutation.property)}` : ''}` }),
    ),
  );
}

/** fast-check prints a failing case recursively, which overflows on the deepest ones: print it shortened. */
function printable(call: GeneratedCall): GeneratedCall {
  return Object.defineProperty(call, fc.toStringMethod, { value: () => describeArgs(call) });
}

/** A call that neither answers nor fails within this is taken to hang (loopback mocks answer at once). */
const HANG_MS = 20_000;

export async function withHangGuard<T>(call: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${HANG_MS} ms: the server hangs on this input`)), HANG_MS);
  });
  try {
    return await Promise.race([call, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Tools whose one call makes more than one request by design (docs/tools.md), each decided by policy: the
 * most requests a call may send. jira_get_issue reads the comments after the issue, jira_transition_issue the
 * transitions before and the status after, conf_get_page a Cloud page's space, conf_create_page a Cloud space's
 * id, conf_update_page the current version before, and again after a 409. ci_failure_report reads a commit's
 * check runs and statuses (a pull request's head first); ci_wait does so on each poll, five polls for a commit
 * that shows no check.
 */
const REQUESTS_PER_CALL: Readonly<Record<string, number>> = {
  // The issue, its comments, and the project's permission scheme its labels read (no trusted groups are set
  // here, so no author is looked up; with them, up to five more).
  jira_get_issue: 3,
  jira_transition_issue: 3,
  // The page, its space, and the space's permissions its label reads (no author lookup without trusted groups).
  conf_get_page: 3,
  conf_create_page: 2,
  conf_update_page: 3,
  ci_failure_report: 3,
  ci_wait: 15,
  // A GitHub App project's definitions are listed before its run; with `wait`, its workflows are read until one
  // shows (five polls at most; the mocks' answers name none).
  circleci_trigger_pipeline: 7,
  // With `wait` (docs/tools.md): the write, then the run's polls. The mocks' answers are no run, pipeline or
  // workflow, which ends a GitHub or Bitbucket wait at its first read and a CircleCI one after five.
  github_rerun_workflow: 3,
  github_dispatch_workflow: 3,
  bb_run_pipeline: 3,
  circleci_rerun_workflow: 6,
  // Provenance looks up the repository's visibility once before labelling people's text (cached after).
  github_get_issue: 2,
  github_list_issues: 2,
  github_list_pull_requests: 2,
  github_get_pull_request: 2,
  github_get_pull_request_diff: 2,
  github_get_file: 2,
  github_get: 2,
  // One visibility lookup per repository the search results name, five at most.
  github_search_issues: 6,
  // Labels: one permission-scheme lookup per project (Jira) or permissions lookup per space (Confluence) the
  // results name, five at most.
  jira_search: 6,
  conf_search: 6,
  // Labels: the job and its run, to tell a fork's build from the repository's own.
  github_get_job_logs: 3,
  // Labels: the repository, for its is_private.
  bb_list_pull_requests: 2,
};

/**
 * The properties every generated call must have: a usable result; arguments the published schema refuses are
 * refused as `invalid_arguments` with no request sent; arguments it accepts are never refused as such, and send
 * at most one request (the mocks answer 200, so there is nothing to retry), or the few a tool makes by design.
 */
export function checkGeneratedCall(c: {
  tool: string;
  input: GeneratedCall;
  result: CallToolResult;
  oracle: SchemaOracle;
  requests: number;
  tally: FuzzTally;
}): void {
  const context = `${c.tool} with ${describeArgs(c.input)}`;
  const code = expectUsableResult(c.result, context);
  const valid = c.oracle.accepts(c.tool, c.input.args);
  c.tally.add(c.tool, valid, code);
  if (!valid) {
    expect(code, `${context}: the schema refuses these arguments`).to.equal('invalid_arguments');
    expect(c.requests, `${context}: requests sent for refused arguments`).to.equal(0);
  } else {
    expect(code, `${context}: the schema accepts these arguments`).not.to.equal('invalid_arguments');
    expect(c.requests, `${context}: requests sent`).to.be.at.most(REQUESTS_PER_CALL[c.tool] ?? 1);
  }
}

export function describeArgs(input: GeneratedCall): string {
  let shown: string;
  try {
    shown = JSON.stringify(input.args) ?? String(input.args);
  } catch {
    shown = '(too deep to print)';
  }
  return `${shown.length > 300 ? `${shown.slice(0, 300)}... (${shown.length} chars)` : shown}${input.mutation ? ` [${input.mutation}]` : ''}`;
}

/** Counts of what the generated calls came to, per tool, for the figures in docs/reliability.md. */
export class FuzzTally {
  private readonly rows = new Map<string, { valid: number; invalid: number; outcomes: Map<string, number> }>();

  add(tool: string, valid: boolean, code: string | undefined): void {
    const row = this.rows.get(tool) ?? { valid: 0, invalid: 0, outcomes: new Map<string, number>() };
    if (valid) row.valid++;
    else row.invalid++;
    const outcome = code ?? 'success';
    row.outcomes.set(outcome, (row.outcomes.get(outcome) ?? 0) + 1);
    this.rows.set(tool, row);
  }

  get total(): number {
    return [...this.rows.values()].reduce((n, r) => n + r.valid + r.invalid, 0);
  }

  report(where: string): string {
    const lines = [...this.rows].map(
      ([tool, r]) =>
        `    ${tool}: ${r.valid + r.invalid} calls (${r.valid} schema-valid, ${r.invalid} invalid): ${[...r.outcomes].map(([o, n]) => `${o} ${n}`).join(', ')}`,
    );
    return `\n  generated calls (${where}): ${this.total} in all\n${lines.join('\n')}\n`;
  }
}
