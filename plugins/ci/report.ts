import type { ErrorExcerpt } from './error-lines.js';

// What a failure report says, vendor by vendor, and the one place that writes it as text: terse, because the
// model reads all of it (a typical single failure stays under 2,000 tokens).

export interface FailedTest {
  name: string;
  classname?: string;
  file?: string;
  /** The first lines of the failure message. */
  message?: string;
  /** Why it is taken for flaky (CircleCI Insights' count), when it is. */
  flaky?: string;
}

export interface JobFailure {
  /** `GitHub Actions`, `CircleCI`, `Bitbucket Pipelines`, or the app or context that reported a check. */
  vendor: string;
  /** The job, step of a pipeline, or check as its vendor names it. */
  name: string;
  /** failure, timed_out, FAILED, error... as the vendor says it. */
  conclusion: string;
  url?: string;
  /** The step that failed. */
  step?: string;
  excerpts: ErrorExcerpt[];
  tests: FailedTest[];
  /** Failed tests beyond those listed. */
  moreTests?: number;
  /** Check-run annotations (path:line: message). */
  annotations: string[];
  /** Why the job itself is taken for flaky (it passed on another run of the same commit). */
  flaky?: string;
  /** The sentence naming the artifact that holds the whole log. */
  log?: string;
  /** What could not be read, and why (a vendor without credentials, a log that expired). */
  notes: string[];
}

export interface FailureReport {
  /** `acme/api at 1a2b3c4d5e6f` */
  subject: string;
  /** How many checks were looked at, and which vendors answered. */
  summary: string;
  failures: JobFailure[];
  /** Checks still running, named: a report on a commit whose CI has not finished says so. */
  pending: string[];
}

const MAX_MESSAGE_CHARS = 400;

/** The report as the model reads it. */
export function renderReport(report: FailureReport): string {
  const out: string[] = [];
  const failed = report.failures.length;
  out.push(`${failed === 0 ? 'No failed checks' : `${failed} failed check${failed === 1 ? '' : 's'}`} on ${report.subject} (${report.summary}).`);
  if (report.pending.length > 0) out.push(`Still running: ${report.pending.join(', ')}.`);
  for (const f of report.failures) out.push('', ...renderFailure(f));
  return out.join('\n');
}

function renderFailure(f: JobFailure): string[] {
  const out = [`## ${f.vendor}: ${f.name} (${f.conclusion})${f.url === undefined ? '' : ` ${f.url}`}`];
  if (f.step !== undefined) out.push(`Failed step: ${f.step}`);
  if (f.flaky !== undefined) out.push(`Flaky: ${f.flaky}`);
  if (f.tests.length > 0) {
    out.push(`Failed tests${f.moreTests ? ` (${f.tests.length} of ${f.tests.length + f.moreTests} shown)` : ''}:`);
    for (const t of f.tests) out.push(`- ${testLine(t)}`);
  }
  if (f.annotations.length > 0) out.push('Annotations:', ...f.annotations.map((a) => `- ${a}`));
  for (const e of f.excerpts) out.push(`Log from line ${e.line}:`, '```', e.text, '```');
  out.push(...f.notes);
  if (f.log !== undefined) out.push(f.log);
  return out;
}

function testLine(t: FailedTest): string {
  const name = t.classname ? `${t.classname} › ${t.name}` : t.name;
  const where = t.file ? ` (${t.file})` : '';
  const flaky = t.flaky ? ` [known flaky: ${t.flaky}]` : '';
  const message = t.message ? `: ${oneParagraph(t.message)}` : '';
  return `${name}${where}${flaky}${message}`;
}

/** A failure message's first lines, on one line, bounded. */
export function oneParagraph(message: string): string {
  const text = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 4)
    .join(' | ');
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** A vendor's failure with nothing read yet. */
export function failure(vendor: string, name: string, conclusion: string, url?: string): JobFailure {
  return { vendor, name, conclusion, url, excerpts: [], tests: [], annotations: [], notes: [] };
}
