import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { DevtoolsPlugin, ServiceLookup } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock } from '../../core/store/key-value-store.js';
import { TOKENS } from '../../core/tokens.js';
import { CircleciSettings, createCircleciClient } from './circleci-client.js';
import type { CircleciDeps } from './circleci-deps.js';
import { FLAKY_TESTS, JOB_TESTS, LOGS, PIPELINE_STATUS, RERUN_WORKFLOW } from './pipeline-tools.js';
import { TRIGGER_PIPELINE } from './trigger-pipeline.js';
import { DELETE, GET, PATCH, POST, PUT } from './rest-tools.js';
import { StepOutputReader } from './step-output.js';
import { CIRCLECI_TOOLSETS } from './toolsets.js';
import { cloudWebApp } from './write-results.js';
import { labelledPlaces, labelledWhole, type UnknownAuthorText, type WholeLabel } from '../../core/plugin/whole-result-label.js';
import { PASSTHROUGH_WHY, resourceKey } from '../../core/plugin/provenance.js';

/** A CircleCI build's output: whether its pipeline built a fork's code is not looked up, so it is untrusted. */
const buildOutput = (item: string, slug: unknown): WholeLabel => ({
  item,
  resource: resourceKey('circleci', String(slug)),
  why: 'build output; whether the pipeline built a fork is not looked up',
});

/** What a fork's code could have written in a job's test results: each test's name and failure message. */
const testTexts = (value: unknown): UnknownAuthorText[] => {
  const tests = (value as { tests?: unknown } | undefined)?.tests;
  return Array.isArray(tests) ? tests.map((_, i) => ({ at: ['tests', i], fields: ['name', 'message'] })) : [];
};

/** The one text in a branch's status a person wrote: the latest pipeline's commit subject. */
const commitSubject = (value: unknown): UnknownAuthorText[] =>
  (value as { pipeline?: unknown } | undefined)?.pipeline ? [{ at: ['pipeline'], fields: ['commit'] }] : [];

/**
 * CircleCI v2: a cached read passthrough and write passthroughs (rest-tools.ts), a job's step output (from the
 * v1.1 job detail), and typed tools for a branch's status, reruns, triggers and tests (pipeline-tools.ts). Each
 * tool is declared whole in its family's file; this class is what their handlers use (CircleciDeps).
 */
@Plugin({
  name: 'circleci',
  version: '1.0.0',
  toolsets: CIRCLECI_TOOLSETS,
  settings: CircleciSettings,
  tools: [
    // A build's output and a branch's commits say nothing of whose code ran, or whether a fork's: untrusted and private.
    labelledWhole(GET, (ctx) => ({ item: `GET ${ctx.route!.path}`, resource: 'circleci:unknown', why: PASSTHROUGH_WHY })),
    labelledWhole(LOGS, (ctx) => buildOutput(`${String(ctx.args.projectSlug)} job ${String(ctx.args.jobNumber)} (log)`, ctx.args.projectSlug)),
    labelledPlaces(
      PIPELINE_STATUS,
      (ctx) => buildOutput(`${String(ctx.args.projectSlug)} ${String(ctx.args.branch)} (pipeline)`, ctx.args.projectSlug),
      commitSubject,
    ),
    ...[RERUN_WORKFLOW, TRIGGER_PIPELINE],
    labelledPlaces(
      JOB_TESTS,
      (ctx) => buildOutput(`${String(ctx.args.projectSlug)} job ${String(ctx.args.jobNumber)} (tests)`, ctx.args.projectSlug),
      testTexts,
    ),
    ...[FLAKY_TESTS, POST, PUT, PATCH, DELETE],
  ],
})
export class CircleciPlugin implements DevtoolsPlugin, CircleciDeps {
  readonly upstream: UpstreamClient;
  readonly outputs: StepOutputReader;
  readonly webApp: string | undefined;
  readonly pollMs: number;
  constructor(
    @inject(TOKENS.Settings) settings: Settings,
    @inject(TOKENS.Clock) readonly clock: Clock,
    @inject(TOKENS.ArtifactStore) readonly artifacts: ArtifactStore,
    @inject(TOKENS.Scrubber) readonly scrub: Scrub,
    @inject(TOKENS.Services) readonly services: ServiceLookup,
  ) {
    this.upstream = createCircleciClient(settings);
    this.outputs = new StepOutputReader(settings, this.upstream.identity.environment);
    this.webApp = cloudWebApp(settings.of(CircleciSettings).CIRCLECI_BASE_URL);
    this.pollMs = settings.of(CircleciSettings).CI_WAIT_POLL_MS;
  }
}
