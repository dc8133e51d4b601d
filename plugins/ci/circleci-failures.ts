import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import { signedUrlClient } from './ci-clients.js';
import { attachLog, noted, type CiDeps, type LogOptions } from './ci-deps.js';
import { failure, type FailedTest, type JobFailure } from './report.js';

// A CircleCI job a commit's check or status links to: its v2 detail, the output of its failed step (from the
// v1.1 job detail, on signed storage URLs), its test metadata, and which of the failed tests CircleCI Insights
// knows as flaky.

export interface CircleciJobRef {
  /** Project slug: gh/acme/api, bb/acme/api, circleci/<org-id>/<project-id>. */
  slug: string;
  number: number;
  url?: string;
}

const VCS: Record<string, string> = { gh: 'gh', github: 'gh', bb: 'bb', bitbucket: 'bb', circleci: 'circleci' };

/**
 * The CircleCI job a check links to: `https://circleci.com/gh/ORG/REPO/123` (the classic status) or
 * `https://app.circleci.com/pipelines/github/ORG/REPO/45/workflows/ID/jobs/123` (the app and its checks).
 */
export function circleciJobOf(link: string): CircleciJobRef | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  const app = /^\/pipelines\/([a-z]+)\/([^/]+)\/([^/]+)\/\d+\/workflows\/[^/]+\/jobs\/(\d+)/.exec(url.pathname);
  const classic = url.hostname.includes('circleci') ? /^\/(gh|bb)\/([^/]+)\/([^/]+)\/(\d+)/.exec(url.pathname) : null;
  const match = app ?? classic;
  const vcs = match ? VCS[match[1]!] : undefined;
  if (!match || vcs === undefined) return undefined;
  return { slug: `${vcs}/${match[2]}/${match[3]}`, number: Number(match[4]), url: link.split('?', 1)[0]! };
}

const slugPath = (slug: string): string => slug.split('/').map(encodeURIComponent).join('/');

interface V1Step {
  name: string;
  actions: Array<{ status: string; failed?: boolean | null; output_url?: string; has_output?: boolean }>;
}

interface TestItem {
  name: string;
  classname?: string;
  file?: string;
  result: string;
  message?: string;
}

/** Most failed tests listed per job: the rest are counted. */
export const MAX_TESTS = 10;

/** A failed CircleCI job, read as far as CircleCI lets: a vendor without credentials gets the link and how to enable it. */
export async function circleciFailure(ctx: AnyToolContext, deps: CiDeps, ref: CircleciJobRef, name: string, options: LogOptions): Promise<JobFailure> {
  const f = failure('CircleCI', name, 'failed', ref.url);
  const circleci = deps.clients.circleci;
  if (circleci === undefined) {
    f.notes.push('CircleCI is not configured here: set CIRCLECI_TOKEN to read its steps, log and tests.');
    return f;
  }
  const project = `/project/${slugPath(ref.slug)}`;
  const [job, detail, tests, flaky] = await Promise.all([
    noted(
      f,
      'the job',
      async () =>
        (await circleci.send(ctx, { method: 'GET', path: `${project}/job/${ref.number}` })).body as { name?: string; web_url?: string; status?: string },
    ),
    // The step output lives only in v1.1, which knows GitHub and Bitbucket projects.
    ref.slug.startsWith('circleci/')
      ? Promise.resolve(undefined)
      : noted(f, 'the steps', async () => {
          const [vcs, org, repo] = ref.slug.split('/');
          const path = `/api/v1.1/project/${vcs === 'gh' ? 'github' : 'bitbucket'}/${encodeURIComponent(org!)}/${encodeURIComponent(repo!)}/${ref.number}`;
          return (await circleci.send(ctx, { method: 'GET', path })).body as { steps?: V1Step[] };
        }),
    noted(
      f,
      'the test results',
      async () => ((await circleci.send(ctx, { method: 'GET', path: `${project}/${ref.number}/tests` })).body as { items?: TestItem[] }).items ?? [],
    ),
    noted(f, 'the flaky tests', async () =>
      flakyNames((await circleci.send(ctx, { method: 'GET', path: `/insights/${slugPath(ref.slug)}/flaky-tests` })).body),
    ),
  ]);
  if (job?.name) f.name = job.name;
  if (job?.status) f.conclusion = job.status;
  if (job?.web_url) f.url = job.web_url;
  const failedTests = (tests ?? []).filter((t) => t.result === 'failure' || t.result === 'error');
  f.tests = failedTests.slice(0, MAX_TESTS).map((t): FailedTest => {
    const times = flaky?.get(flakyKey(t.name, t.classname)) ?? flaky?.get(flakyKey(t.name));
    return { name: t.name, classname: t.classname || undefined, file: t.file || undefined, message: t.message || undefined, flaky: times };
  });
  if (failedTests.length > MAX_TESTS) f.moreTests = failedTests.length - MAX_TESTS;
  const step = detail?.steps?.find((s) => s.actions.some((a) => a.status === 'failed' || a.failed === true || a.status === 'timedout'));
  if (step !== undefined) {
    f.step = step.name;
    const action = step.actions.find((a) => a.status === 'failed' || a.failed === true || a.status === 'timedout') ?? step.actions[0];
    if (action?.output_url) {
      const output = await noted(f, 'the step output', () => stepOutput(ctx, deps, action.output_url!, circleci.identity.environment));
      if (output !== undefined) await attachLog(ctx, deps, f, output, options);
    }
  }
  return f;
}

/** A step's output from its signed URL: CircleCI's JSON list of messages, joined. Sent without the CircleCI token. */
async function stepOutput(ctx: AnyToolContext, deps: CiDeps, outputUrl: string, environment: string): Promise<string> {
  const url = new URL(outputUrl);
  const client = signedUrlClient(deps.settings, url.origin, deps.clients.circleciBase, environment);
  const body = (await client.send(ctx, { method: 'GET', path: `${url.pathname}${url.search}` })).body;
  if (!Array.isArray(body)) throw new Error('the step output is not the JSON list of messages CircleCI serves.');
  return body.map((m) => (typeof (m as { message?: unknown }).message === 'string' ? (m as { message: string }).message : '')).join('');
}

const flakyKey = (name: string, classname?: string | null): string => `${classname ?? ''}\u0000${name}`;

/**
 * Insights' flaky tests by name (and by class and name), with how often each flaked. Accepts both shapes in
 * use: the OpenAPI document's (`flaky-tests[]."test-name"`, `times-flaked`) and the snake_case one CircleCI's
 * own server parses (`flaky_tests[].test_name`, `times_flaked`).
 */
export function flakyNames(body: unknown): Map<string, string> {
  const b = (body ?? {}) as Record<string, unknown>;
  const list = (Array.isArray(b['flaky-tests']) ? b['flaky-tests'] : Array.isArray(b.flaky_tests) ? b.flaky_tests : []) as Array<Record<string, unknown>>;
  const names = new Map<string, string>();
  for (const t of list) {
    const name = (t['test-name'] ?? t.test_name) as string | undefined;
    if (typeof name !== 'string') continue;
    const times = Number(t['times-flaked'] ?? t.times_flaked ?? 0);
    const why = `flaked ${times} time${times === 1 ? '' : 's'} (CircleCI Insights)`;
    const classname = (t.classname ?? null) as string | null;
    names.set(flakyKey(name, classname), why);
    if (!names.has(flakyKey(name))) names.set(flakyKey(name), why);
  }
  return names;
}
