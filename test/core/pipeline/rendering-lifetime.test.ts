import { getHeapSpaceStatistics } from 'node:v8';
import { expect } from 'chai';
import { LOCAL_PRINCIPAL } from '../../../core/pipeline/principal.js';
import { exposedGc } from '../../support/exposed-gc.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import { pagedListReply, workflowRuns } from '../../fixtures/github/github-api.js';

const MiB = 1024 * 1024;
const RUNS = workflowRuns(30);
const CALLS = 20;

const oldSpaceUsed = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

// The throughput profile's finding: every uncached workflow-runs call's rendering (440 KB of TOON in pieces)
// was promoted to V8's old generation by the next young collection, although nothing used it once the call had
// answered; the young collections took 2.3 ms a call instead of 0.2, and the old generation filled with it.
describe('a rendering once its call has answered', () => {
  const vendor = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'ghp_renderingLifetime0123456789abcd' }),
  });

  for (const outputFormat of ['toon', 'json']) {
    it(`is left to the young generation, in ${outputFormat} cut for the model and saved whole`, async () => {
      vendor.mock.on('GET', '/repos/:owner/:repo/actions/runs', (request) =>
        pagedListReply(request, { key: 'workflow_runs', items: RUNS, linkPath: '/repositories/1296269/actions/runs' }),
      );
      const gc = exposedGc();
      const args = { owner: 'octo-org', repo: 'octo-repo', perPage: 30, outputFormat };
      const call = async (): Promise<string> => textOf(await vendor.kernel.kernel.call('github_list_workflow_runs', args, LOCAL_PRINCIPAL));
      for (let i = 0; i < 3; i++) await call();
      gc();
      const before = oldSpaceUsed();
      let cut = 0;
      for (let i = 0; i < CALLS; i++) {
        if ((await call()).includes('## Response Truncated')) cut++;
        // A young collection after each call: what it finds still alive of an earlier call is promoted. Once a
        // call has answered, nothing of it should be.
        gc({ type: 'minor' });
      }
      const promoted = oldSpaceUsed() - before;
      expect(cut).to.equal(CALLS);
      expect(promoted, `${(promoted / MiB).toFixed(2)} MiB promoted over ${CALLS} calls`).to.be.lessThan(2 * MiB);
    });
  }
});
