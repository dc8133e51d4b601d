// How often did each workflow of CircleCI project gh/acme/checkout-service fail on main?
const slug = 'gh/acme/checkout-service';
const pipelines: string[] = [];
let token: string | null = null;
do {
  const queryParams: Record<string, string> = token === null ? { branch: 'main' } : { branch: 'main', 'page-token': token };
  const page = (await tools.circleci_get({ path: `/project/${slug}/pipeline`, queryParams, jq: '{items: items[*].id, next: next_page_token}' })).data as {
    items: string[];
    next: string | null;
  };
  pipelines.push(...page.items);
  token = page.next;
} while (token !== null);

type Workflow = { name: string; status: string };
const workflows = await Promise.all(
  pipelines.map(async (id) => (await tools.circleci_get({ path: `/pipeline/${id}/workflow`, jq: 'items[*].{name: name, status: status}' })).data as Workflow[]),
);
const rates = new Map<string, { runs: number; failed: number }>();
for (const { name, status } of workflows.flat()) {
  const rate = rates.get(name) ?? { runs: 0, failed: 0 };
  rates.set(name, { runs: rate.runs + 1, failed: rate.failed + (status === 'failed' ? 1 : 0) });
}
console.log(
  JSON.stringify([...rates].map(([workflow, r]) => ({ workflow, ...r })).sort((a, b) => b.failed - a.failed || a.workflow.localeCompare(b.workflow))),
);
