import type { VendorMocks } from './vendor-mocks.js';

/**
 * Routes that answer each principal's requests with data tagged by the principal named in the path, large
 * enough to spill into artifacts: `/repos/<tag>/app/actions/runs` (a run list over 16 KiB, so its structured
 * value becomes an artifact), `/repos/<tag>/app/actions/jobs/<n>/logs` (a log, kept whole as an artifact) and
 * CircleCI's `/api/v2/project/gh/<tag>/app/pipeline` (a cached list).
 */
export function serveTaggedData(mocks: VendorMocks): void {
  mocks.vendors.github.mock.on('GET', '/repos/:tag/app/actions/runs', (r) => ({
    headers: { link: `<${mocks.vendors.github.mock.url}/repos/${r.params.tag}/app/actions/runs?page=2>; rel="next"` },
    body: {
      total_count: 60,
      workflow_runs: Array.from({ length: 60 }, (_, i) => ({
        id: 1000 + i,
        name: `ci of ${r.params.tag}`,
        owner: r.params.tag,
        head_branch: `branch-of-${r.params.tag}`,
        status: 'completed',
        conclusion: 'success',
        pad: `${r.params.tag} `.repeat(30),
      })),
    },
  }));
  mocks.vendors.github.mock.on('GET', '/repos/:tag/app/actions/jobs/:job/logs', (r) => ({
    headers: { 'content-type': 'text/plain' },
    body: Array.from(
      { length: 400 },
      (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.0000000Z step ${i} of job ${r.params.job} for ${r.params.tag}`,
    ).join('\n'),
  }));
  mocks.vendors.circleci.mock.on('GET', '/api/v2/project/gh/:tag/app/pipeline', (r) => ({
    headers: { 'cache-control': 'max-age=5' },
    body: { items: [{ id: `pipeline-of-${r.params.tag}`, number: 7, state: 'created', vcs: { branch: `branch-of-${r.params.tag}` } }], next_page_token: null },
  }));
}

/** Every principal tag a piece of text or data names (tags look like `p07-<hex>`). */
export function tagsIn(text: string): Set<string> {
  return new Set(text.match(/\bp\d{2}-[0-9a-f]{6}\b/g) ?? []);
}
