import { CIRCLECI_SLUG, circleHistory, mountCircleci } from '../vendors/circleci-project.js';
import { programSource, once, type Task } from './task.js';

export type FailureRateAnswer = Array<{ workflow: string; runs: number; failed: number }>;

const history = once(circleHistory);

/** Runs and failures per workflow name, most failures first, ties by name. */
export function failureRates(workflows: ReadonlyArray<{ name: string; status: string }>): FailureRateAnswer {
  const rates = new Map<string, { runs: number; failed: number }>();
  for (const { name, status } of workflows) {
    const rate = rates.get(name) ?? { runs: 0, failed: 0 };
    rates.set(name, { runs: rate.runs + 1, failed: rate.failed + (status === 'failed' ? 1 : 0) });
  }
  return [...rates].map(([workflow, r]) => ({ workflow, ...r })).sort((a, b) => b.failed - a.failed || a.workflow.localeCompare(b.workflow));
}

/** Task 5: how often each workflow of a CircleCI project failed on main, over all of its pipelines there. */
export const workflowFailureRateTask: Task<FailureRateAnswer> = {
  id: 'workflow-failure-rate',
  question: `How often did each workflow of CircleCI project ${CIRCLECI_SLUG} fail on main?`,
  search: { query: 'circleci get' },
  mount: (mock) => mountCircleci(mock, history()),

  async direct(agent) {
    const pipelines: string[] = [];
    let token: string | null = null;
    do {
      const queryParams: Record<string, string> = { branch: 'main', ...(token === null ? {} : { 'page-token': token }) };
      const page = (await agent.call('circleci_get', {
        path: `/project/${CIRCLECI_SLUG}/pipeline`,
        queryParams,
        jq: '{items: items[*].id, next: next_page_token}',
      })) as {
        data: { items: string[]; next: string | null };
      };
      pipelines.push(...page.data.items);
      token = page.data.next;
    } while (token !== null);
    const workflows = (await agent.turn(
      pipelines.map((id) => ({ tool: 'circleci_get', args: { path: `/pipeline/${id}/workflow`, jq: 'items[*].{name: name, status: status}' } })),
    )) as Array<{ data: Array<{ name: string; status: string }> }>;
    return failureRates(workflows.flatMap((w) => w.data));
  },

  program: () => programSource('workflow-failure-rate'),

  expected: () =>
    failureRates(
      history()
        .pipelines.filter((p) => p.vcs.branch === 'main')
        .flatMap((p) => history().workflows.get(p.id) ?? []),
    ),
};
