import { inject } from 'tsyringe';
import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Settings } from '../../core/config/settings.js';
import { Plugin } from '../../core/plugin/decorators.js';
import type { Scrub } from '../../core/result/secret-scrubber.js';
import { TOKENS } from '../../core/tokens.js';
import { createCiClients, type CiClients } from './ci-clients.js';
import type { CiDeps } from './ci-deps.js';
import { CiSettings } from './ci-settings.js';
import { FAILURE_REPORT } from './failure-report-tool.js';
import { WAIT } from './wait-tool.js';
import { resourceKey } from '../../core/plugin/provenance.js';
import { labelledWhole } from '../../core/plugin/whole-result-label.js';

/**
 * Across CI vendors: why a commit's CI failed (ci_failure_report) and waiting for it to finish (ci_wait), on
 * GitHub Actions, CircleCI and Bitbucket Pipelines, whichever are configured and attached to the commit.
 */
@Plugin({
  name: 'ci',
  version: '1.0.0',
  settings: CiSettings,
  // Not in the defaults: the default tools/list is held to 12,000 tokens and these two (about 500) do not fit yet.
  toolsets: { ci: { description: "Why a commit's CI failed, and waiting for it, across GitHub Actions, CircleCI and Bitbucket Pipelines.", default: false } },
  tools: [
    // The report quotes build logs, a fork's among them for a fork's pull request: labelled as those logs are
    // when nothing finer is known, untrusted and private, the report fenced whole. ci_wait gives states only.
    labelledWhole(FAILURE_REPORT, (ctx) => ({
      item: `${String(ctx.args.repo)} at ${String(ctx.args.ref)} (CI failure report)`,
      resource: resourceKey(ctx.args.host === 'bitbucket' ? 'bitbucket' : 'github', String(ctx.args.repo)),
      why: 'quotes build logs; whether a build was of a fork is not looked up',
    })),
    WAIT,
  ],
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
}
