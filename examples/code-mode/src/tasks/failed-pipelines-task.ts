import { CIRCLECI_SLUG, circleHistory, failedWorkflows, mountCircleci } from '../vendors/circleci-project.js';
import { programSource, once, type Task } from './task.js';

export type FailedPipelinesAnswer = Array<{ pipeline: number; workflow: string; failedJobs: string[] }>;

const history = once(circleHistory);

/** Task 3: a CircleCI project's pipelines on main whose workflows failed, with the failing job names. */
export const failedPipelinesTask: Task<FailedPipelinesAnswer> = {
  id: 'failed-pipelines',
  question: `Which pipelines of CircleCI project ${CIRCLECI_SLUG} on main have failed workflows, and which jobs failed?`,
  search: { query: 'circleci get' },
  mount: (mock) => mountCircleci(mock, history()),

  async direct(agent) {
    // The pipelines on main, page by page (next_page_token)...
    const pipelines: Array<{ id: string; number: number }> = [];
    let token: string | null = null;
    do {
      const queryParams: Record<string, string> = { branch: 'main', ...(token === null ? {} : { 'page-token': token }) };
      const page = (await agent.call('circleci_get', { path: `/project/${CIRCLECI_SLUG}/pipeline`, queryParams, jq: '{items: items[*].{id: id, number: number}, next: next_page_token}' })) as {
        data: { items: typeof pipelines; next: string | null };
      };
      pipelines.push(...page.data.items);
      token = page.data.next;
    } while (token !== null);
    // ...then the failed workflows of all of them in one turn, then the failed jobs of those in another.
    const workflowPages = (await agent.turn(
      pipelines.map((p) => ({ tool: 'circleci_get', args: { path: `/pipeline/${p.id}/workflow`, jq: "items[?status=='failed'].{id: id, name: name}" } })),
    )) as Array<{ data: Array<{ id: string; name: string }> }>;
    const failed = pipelines.flatMap((p, i) => workflowPages[i]!.data.map((w) => ({ pipeline: p.number, workflow: w })));
    const jobPages = (await agent.turn(failed.map((f) => ({ tool: 'circleci_get', args: { path: `/workflow/${f.workflow.id}/job`, jq: "items[?status=='failed'].name" } })))) as Array<{
      data: string[];
    }>;
    return failed.map((f, i) => ({ pipeline: f.pipeline, workflow: f.workflow.name, failedJobs: jobPages[i]!.data }));
  },

  program: () => programSource('failed-pipelines'),

  expected: () => failedWorkflows(history(), 'main'),
};
