import type { UpstreamClient } from '../http/upstream-client.js';
import type { ServiceLookup } from '../plugin/contract.js';
import type { Provenance } from '../plugin/provenance.js';
import type { ToolContext } from '../plugin/tool-context.js';
import { TOKENS } from '../tokens.js';

// The failure report of one run a write waited on (`wait: true`): the ci plugin writes it (the same report as
// ci_failure_report and ci_wait), the vendor plugins ask for it through the plugin contract, since a plugin may
// not import another. Without the ci plugin the waits answer their pointers to the logs, and say why.

/**
 * A finished run with failures, and the client that reads it: the write tool's own, so the report's reads go to
 * its host, with its credential, through its call's request gate (the tool declares them as further reads).
 */
export type WaitedRun =
  | {
      vendor: 'github';
      client: UpstreamClient;
      repo: string;
      sha: string;
      runId: number;
      /** The run's failed jobs (a job's id is its check run's). */
      jobs: ReadonlyArray<{ id: number; name: string; conclusion: string | null; url?: string }>;
    }
  | { vendor: 'circleci'; client: UpstreamClient; jobs: ReadonlyArray<{ projectSlug: string; jobNumber: number; name: string }> }
  | { vendor: 'bitbucket'; client: UpstreamClient; repo: string; pipeline: { uuid: string; buildNumber: number } };

export interface RunReport {
  /** The report as ci_failure_report writes it: per failed job its step, the lines around the first errors, its failed tests, the whole log's artifact. */
  text: string;
  /** Its labels as a whole (it quotes build logs: untrusted); `withRunReport` places them on the field that holds it. */
  provenance: Provenance;
}

/** `TOKENS.FailureReporter`, provided by the ci plugin. */
export interface FailureReporter {
  reportRun(ctx: ToolContext, run: WaitedRun): Promise<RunReport>;
}

/** Where a wait's answer holds the report (or why there is none). */
export const REPORT_FIELD = 'failureReport';

/** What a wait's answer says when no plugin writes reports. */
export const NO_REPORTER =
  'No failure report: the ci plugin is not loaded here (add "ci" to the config file\'s plugins); read each failed log with the call named beside it.';

/**
 * A wait's `outcome` with the failure report of `run` in `failureReport`, labelled on that field; without the ci
 * plugin, the sentence that says so and no labels. The write was sent and the wait ended: a report that cannot be
 * read (its commit's checks gone, a read refused) is said in the field, not made the call's error; only a
 * cancelled call ends as one.
 */
export async function withRunReport<T extends object>(
  ctx: ToolContext,
  services: ServiceLookup,
  outcome: T,
  run: WaitedRun,
): Promise<LabelledOutcome<T & { [REPORT_FIELD]: string }>> {
  const reporter = services.find<FailureReporter>(TOKENS.FailureReporter);
  const said = (text: string): LabelledOutcome<T & { [REPORT_FIELD]: string }> => quotingNothing({ ...outcome, [REPORT_FIELD]: text });
  if (reporter === undefined) return said(NO_REPORTER);
  let report: RunReport;
  try {
    report = await reporter.reportRun(ctx, run);
  } catch (error) {
    if ((error as { code?: string }).code === 'cancelled') throw error;
    return said(`The failure report could not be read: ${(error as Error).message}`);
  }
  const labels = report.provenance.labels.map((l) => ({ ...l, at: [], fields: [REPORT_FIELD] }));
  return { value: { ...outcome, [REPORT_FIELD]: report.text }, provenance: { labels, warnings: report.provenance.warnings } };
}

/** The labels of a wait's answer that quotes nothing (ids, states, names of jobs). */
export const NO_LABELS: Provenance = { labels: [], warnings: [] };

/** A wait's outcome with the labels of what it quotes. */
export interface LabelledOutcome<T> {
  value: T;
  provenance: Provenance;
}

/** An outcome that quotes nothing. */
export const quotingNothing = <T>(value: T): LabelledOutcome<T> => ({ value, provenance: NO_LABELS });
