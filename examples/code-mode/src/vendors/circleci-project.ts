import type { MockUpstream } from 'mcp-devtools/build/server/testing/mock-upstream.js';
import { circleciFixture, tokenPagedReply } from 'mcp-devtools/build/test/fixtures/circleci/circleci-api.js';
import { SeededRandom } from './seeded-random.js';

export const CIRCLECI_SLUG = 'gh/acme/checkout-service';

type Item = Record<string, unknown>;
export type Pipeline = Item & { id: string; number: number; vcs: Item & { branch: string } };
export type Workflow = Item & { id: string; name: string; status: string };
export type CircleJob = Item & { name: string; status: string };

/** A CircleCI project's recent history: pipelines newest first, each pipeline's workflows, each workflow's jobs. */
export interface CircleHistory {
  pipelines: Pipeline[];
  workflows: Map<string, Workflow[]>;
  jobs: Map<string, CircleJob[]>;
}

const BUILD = ['checkout-deps', 'lint', 'unit-tests', 'integration-tests', 'build-image'];
const DEPLOY = ['deploy-staging', 'smoke-tests', 'deploy-production'];

/**
 * 120 pipelines of one project (80 on main, 40 on feature branches), each with a build-and-test workflow and,
 * on main, a deploy workflow once the build passed. About one workflow in six fails, with one or two failed
 * jobs and the jobs after the first failure blocked. Payloads are CircleCI's (fixtures checked against its
 * OpenAPI) with their own ids, numbers, branches and statuses.
 */
export function circleHistory(): CircleHistory {
  const random = new SeededRandom(0xc1c1);
  const uuid = (): string => [8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, () => Math.floor(random.next() * 16).toString(16)).join('')).join('-');
  const templates = {
    pipeline: circleciFixture<Item>('pipeline.json'),
    workflow: circleciFixture<Item>('workflow.json'),
    job: circleciFixture<{ items: Item[] }>('workflow-jobs.json').items[0]!,
  };
  const history: CircleHistory = { pipelines: [], workflows: new Map(), jobs: new Map() };

  const addWorkflow = (pipeline: Pipeline, name: string, jobNames: string[]): Workflow => {
    const failed = random.chance(0.17);
    const broken = new Set<number>();
    if (failed) {
      broken.add(Math.floor(random.next() * jobNames.length));
      if (random.chance(0.25)) broken.add(Math.floor(random.next() * jobNames.length));
    }
    const firstBroken = Math.min(...broken);
    const workflow: Workflow = {
      ...structuredClone(templates.workflow),
      id: uuid(),
      name,
      pipeline_id: pipeline.id,
      pipeline_number: pipeline.number,
      project_slug: CIRCLECI_SLUG,
      status: failed ? 'failed' : 'success',
      created_at: pipeline.created_at,
      stopped_at: pipeline.created_at,
    };
    const jobs = jobNames.map(
      (jobName, j): CircleJob => ({
        ...structuredClone(templates.job),
        id: uuid(),
        job_number: pipeline.number * 10 + j + (name === 'deploy' ? 5 : 0),
        name: jobName,
        project_slug: CIRCLECI_SLUG,
        status: broken.has(j) ? 'failed' : j > firstBroken ? 'blocked' : 'success',
        dependencies: [],
        requires: {},
      }),
    );
    history.jobs.set(workflow.id, jobs);
    return workflow;
  };

  for (let i = 0; i < 120; i++) {
    const number = 4120 - i;
    const branch = i % 3 === 2 ? `feature/cart-${number}` : 'main';
    const created = new Date(Date.UTC(2026, 9, 7, 16) - i * 47 * 60_000).toISOString();
    const revision = uuid().replaceAll('-', '').padEnd(40, '0');
    const pipeline: Pipeline = {
      ...structuredClone(templates.pipeline),
      id: uuid(),
      number,
      project_slug: CIRCLECI_SLUG,
      created_at: created,
      updated_at: created,
      trigger_parameters: { circleci: { event_type: 'push' }, git: { branch, checkout_sha: revision } },
      vcs: { ...(templates.pipeline.vcs as Item), branch, revision, target_repository_url: 'https://github.com/acme/checkout-service', origin_repository_url: 'https://github.com/acme/checkout-service' },
    };
    history.pipelines.push(pipeline);
    const build = addWorkflow(pipeline, 'build-and-test', BUILD);
    const workflows = [build];
    if (branch === 'main' && build.status === 'success') workflows.push(addWorkflow(pipeline, 'deploy', DEPLOY));
    history.workflows.set(pipeline.id, workflows);
  }
  return history;
}

/**
 * CircleCI v2's three list endpoints for this history: a project's pipelines (with its `branch` filter), a
 * pipeline's workflows, a workflow's jobs; 20 items a page, continued with `next_page_token`.
 */
export function mountCircleci(mock: MockUpstream, history: CircleHistory): void {
  const notFound = { status: 404, body: { message: 'Not found.' } };
  mock.on('GET', `/api/v2/project/${CIRCLECI_SLUG}/pipeline`, (request) => {
    const branch = request.query.get('branch');
    return tokenPagedReply(request, history.pipelines.filter((p) => branch === null || p.vcs.branch === branch));
  });
  mock.on('GET', '/api/v2/pipeline/:id/workflow', (request) => {
    const workflows = history.workflows.get(request.params.id!);
    return workflows === undefined ? notFound : tokenPagedReply(request, workflows);
  });
  mock.on('GET', '/api/v2/workflow/:id/job', (request) => {
    const jobs = history.jobs.get(request.params.id!);
    return jobs === undefined ? notFound : tokenPagedReply(request, jobs);
  });
}

/** The truth for task 3: on `branch`, each failed workflow with its failed jobs, newest pipeline first. */
export function failedWorkflows(history: CircleHistory, branch: string): Array<{ pipeline: number; workflow: string; failedJobs: string[] }> {
  return history.pipelines
    .filter((p) => p.vcs.branch === branch)
    .flatMap((p) =>
      (history.workflows.get(p.id) ?? [])
        .filter((w) => w.status === 'failed')
        .map((w) => ({ pipeline: p.number, workflow: w.name, failedJobs: (history.jobs.get(w.id) ?? []).filter((j) => j.status === 'failed').map((j) => j.name) })),
    );
}
