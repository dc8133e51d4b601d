import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { ServiceLookup } from '../../core/plugin/contract.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import type { Clock } from '../../core/store/key-value-store.js';
import type { StepOutputReader } from './step-output.js';

/** What the CircleCI tools' handlers use: the CircleciPlugin instance (index.ts), built from its `@inject` constructor. */
export interface CircleciDeps {
  readonly upstream: UpstreamClient;
  /** The time circleci_get says it fetched an answer the cache did not serve. */
  readonly clock: Clock;
  /** Reads a step's output from the signed URL a v1.1 job detail gives. */
  readonly outputs: StepOutputReader;
  readonly artifacts: ArtifactStore;
  /** Secrets replaced in step output before it is shown or saved (an artifact is stored as given): the server's one scrubber. */
  readonly scrub: Scrub;
  /** CircleCI cloud's web app, for the link of a triggered pipeline (unknown on a CircleCI server installation). */
  readonly webApp: string | undefined;
  /** First interval between two polls of a wait (CI_WAIT_POLL_MS). */
  readonly pollMs: number;
  /** The services of plugins it does not depend on: a wait's failure report (TOKENS.FailureReporter, the ci plugin's). */
  readonly services: ServiceLookup;
}
