import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import type { BootContext } from '../../core/plugin/contract.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { createCiClients, type CiClients } from './ci-clients.js';
import type { CiDeps } from './ci-deps.js';
import { CiSettings } from './ci-settings.js';
import { FAILURE_REPORT } from './failure-report-tool.js';
import { runReporter } from './run-report.js';
import { WAIT } from './wait-tool.js';

/**
 * Across CI vendors: why a commit's CI failed (ci_failure_report) and waiting for it to finish (ci_wait), on
 * GitHub Actions, CircleCI and Bitbucket Pipelines, whichever are configured and attached to the commit.
 */
@Plugin({
  name: 'ci',
  version: '1.0.0',
  settings: CiSettings,
  toolsets: { ci: { description: "Why a commit's CI failed, and waiting for it, across GitHub Actions, CircleCI and Bitbucket Pipelines.", default: true } },
  tools: [FAILURE_REPORT, WAIT],
})
export class CiPlugin implements CiDeps {
  readonly clients: CiClients;
  readonly pollMs: number;
  constructor(
    @inject(TOKENS.Settings) readonly settings: Settings,
    @inject(TOKENS.ArtifactStore) readonly artifacts: ArtifactStore,
    @inject(TOKENS.Scrubber) readonly scrub: Scrub,
  ) {
    this.clients = createCiClients(settings);
    this.pollMs = settings.of(CiSettings).CI_WAIT_POLL_MS;
  }

  /** The report of one run, for the writes that wait on the run they start (`wait: true`), whatever they run on. */
  boot(ctx: BootContext): void {
    ctx.provide(TOKENS.FailureReporter, runReporter(this));
  }

  /** Served by default when one CI vendor (GitHub, CircleCI, Bitbucket) has credentials to ask. */
  hasCredentials(): boolean {
    const { github, circleci, bitbucket } = this.clients;
    return github !== undefined || circleci !== undefined || bitbucket !== undefined;
  }
}
