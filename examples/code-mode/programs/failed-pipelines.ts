// Which pipelines of CircleCI project gh/acme/checkout-service on main have failed workflows, and which jobs failed?
const slug = 'gh/acme/checkout-service';

/** Every item of a CircleCI list, following next_page_token. */
async function listAll<T>(path: string, jq: string, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  let token: string | null = null;
  do {
    const queryParams: Record<string, string> = token === null ? query : { ...query, 'page-token': token };
    const page = (await tools.circleci_get({ path, queryParams, jq: `{items: items[*].${jq}, next: next_page_token}` })).data as { items: T[]; next: string | null };
    items.push(...page.items);
    token = page.next;
  } while (token !== null);
  return items;
}

type Pipeline = { id: string; number: number };
type Workflow = { id: string; name: string; status: string };
type Job = { name: string; status: string };

const pipelines = await listAll<Pipeline>(`/project/${slug}/pipeline`, '{id: id, number: number}', { branch: 'main' });
const failures = await Promise.all(
  pipelines.map(async (pipeline) => {
    const workflows = await listAll<Workflow>(`/pipeline/${pipeline.id}/workflow`, '{id: id, name: name, status: status}');
    return Promise.all(
      workflows
        .filter((workflow) => workflow.status === 'failed')
        .map(async (workflow) => {
          const jobs = await listAll<Job>(`/workflow/${workflow.id}/job`, '{name: name, status: status}');
          return { pipeline: pipeline.number, workflow: workflow.name, failedJobs: jobs.filter((job) => job.status === 'failed').map((job) => job.name) };
        }),
    );
  }),
);
console.log(JSON.stringify(failures.flat()));
