import { Ajv } from 'ajv';
import { expect } from 'chai';
import { circleciFixture, pipelines } from '../../fixtures/circleci/circleci-api.js';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';
import type { RecordedRequest } from '../../../server/testing/mock-upstream.js';

interface Operation {
  operationId: string;
  path: string[];
  query: string[];
  pageToken: boolean;
  body: object | null;
}

const SLUG = 'gh/CircleCI-Public/api-preview-docs';
const WORKFLOW = 'fda08377-fe7e-46b1-8992-3a7aaecac9c3';
const latest = pipelines(1)[0]!;

/** Every typed CircleCI tool, called so that it sends each kind of request it can (every page, every body shape). */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['circleci_pipeline_status', { projectSlug: SLUG, branch: 'main' }],
  ['circleci_rerun_workflow', { workflowId: WORKFLOW }],
  ['circleci_rerun_workflow', { workflowId: WORKFLOW, fromFailed: false }],
  ['circleci_trigger_pipeline', { projectSlug: SLUG, branch: 'main', parameters: { deploy_prod: true, replicas: 2, region: 'eu' } }],
  ['circleci_trigger_pipeline', { projectSlug: SLUG }],
  ['circleci_job_tests', { projectSlug: SLUG, jobNumber: 1262 }],
  ['circleci_flaky_tests', { projectSlug: SLUG }],
];

/** `/project/{project-slug}/pipeline` as a pattern: a project slug is three segments, anything else one. */
function templatePattern(template: string): RegExp {
  const pattern = template
    .split('/')
    .map((segment) => (segment === '{project-slug}' ? '[^/]+/[^/]+/[^/]+' : /^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^/api/v2${pattern}$`);
}

/** Every key of a body, checked against the properties its schema declares, nested objects included. */
function undeclaredKeys(value: unknown, schema: { properties?: Record<string, object>; additionalProperties?: unknown }, at = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const declared = schema.properties?.[key];
    if (declared !== undefined) return undeclaredKeys(child, declared, `${at}${key}.`);
    return schema.additionalProperties !== undefined && schema.additionalProperties !== false ? [] : [`${at}${key}`];
  });
}

// Each request a typed CircleCI tool sends must be an operation of CircleCI's published OpenAPI description
// (API v2, extracted by test/scripts/extract-circleci-openapi.ts): its method and path, only the query parameters
// it declares (page-token where its answer's next_page_token says so), and a body its request schema accepts.
describe("CircleCI typed tools send only requests of CircleCI's OpenAPI description", () => {
  const operations = circleciFixture<Record<string, Operation | string>>('openapi-requests.json');
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const t = useVendorKernel({ plugins: ['circleci'], env: (url) => ({ CIRCLECI_BASE_URL: url, CIRCLECI_TOKEN: 'CCIPAT_conformance_0123456789' }) });

  function operationOf(request: RecordedRequest): [string, Operation] {
    const found = Object.entries(operations).filter(
      (entry): entry is [string, Operation] =>
        typeof entry[1] !== 'string' && entry[0].startsWith(`${request.method} `) && templatePattern(entry[0].split(' ')[1]!).test(request.path),
    );
    expect(found, `${request.method} ${request.path} is no operation of the description`).to.have.length.greaterThan(0);
    // The most specific template when two match (a literal segment beats a parameter).
    return found.sort((a, b) => a[0].split('{').length - b[0].split('{').length)[0]!;
  }

  for (const [tool, args] of CALLS) {
    it(`${tool} ${JSON.stringify(args)}`, async () => {
      const jobs = circleciFixture<{ items: unknown[] }>('workflow-jobs.json');
      t.mock.on('GET', '/api/v2/project/:vcs/:org/:repo/pipeline', { body: { items: [latest], next_page_token: null } });
      t.mock.on('GET', `/api/v2/pipeline/${latest.id}/workflow`, { body: circleciFixture('workflow-list.json') });
      // Two pages of jobs and of tests, so that the page-token requests are checked too.
      t.mock.on('GET', '/api/v2/workflow/:id/job', (req) => ({ body: { ...jobs, next_page_token: req.query.has('page-token') ? null : 'b2Zmc2V0OjIw' } }));
      t.mock.on('GET', '/api/v2/project/:vcs/:org/:repo/:job/tests', (req) => ({
        body: { ...circleciFixture<Record<string, unknown>>('job-tests.json'), next_page_token: req.query.has('page-token') ? null : 'b2Zmc2V0OjIw' },
      }));
      t.mock.on('POST', '/api/v2/workflow/:id/rerun', { status: 202, body: circleciFixture('workflow-rerun.json') });
      t.mock.on('POST', '/api/v2/project/:vcs/:org/:repo/pipeline', { status: 201, body: circleciFixture('pipeline-created.json') });
      t.mock.on('GET', '/api/v2/insights/:vcs/:org/:repo/flaky-tests', { body: circleciFixture('flaky-tests.json') });
      const result = await t.kernel.call(tool, args);
      expect(result.isError, textOf(result)).to.equal(undefined);
      expect(t.mock.requests).to.have.length.greaterThan(0);
      for (const request of t.mock.requests) {
        const [key, operation] = operationOf(request);
        const allowed = [...operation.query, ...(operation.pageToken ? ['page-token'] : [])];
        expect(
          [...request.query.keys()].filter((k) => !allowed.includes(k)),
          `${key}: query parameters it does not declare`,
        ).to.deep.equal([]);
        if (operation.body === null) {
          expect(request.body, `${key} takes no body`).to.equal('');
          continue;
        }
        const body = JSON.parse(request.body) as unknown;
        const validate = ajv.compile(operation.body);
        expect(validate(body), `${key}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
        expect(undeclaredKeys(body, operation.body), `${key}: body keys it does not declare`).to.deep.equal([]);
      }
    });
  }

  it('covers every typed CircleCI tool, and the check can fail', () => {
    const typed = t.kernel.kernel
      .definitions()
      .filter((d) => d.plugin === 'circleci' && !/^circleci_(get|post|put|patch|delete|logs)$/.test(d.spec.name))
      .map((d) => d.spec.name);
    expect([...new Set(CALLS.map(([tool]) => tool))].sort()).to.deep.equal(typed.sort());
    const rerun = operations['POST /workflow/{id}/rerun'] as Operation;
    expect(undeclaredKeys({ from_failed: true, fromFailed: true }, rerun.body!)).to.deep.equal(['fromFailed']);
    expect(ajv.compile(rerun.body!)({ from_failed: 'yes' })).to.equal(false);
    expect((operations['GET /workflow/{id}/job'] as Operation).query).to.deep.equal([]);
  });
});
