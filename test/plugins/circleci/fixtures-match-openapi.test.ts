import { Ajv } from 'ajv';
import { expect } from 'chai';
import { circleciFixture, pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';

interface ExtractedSchema {
  endpoint: string;
  schema: object;
}

// The mock is only as good as its payloads: each fixture, and the scaled-up pages built from them, must
// validate against the response schema of CircleCI's own OpenAPI description.
describe("CircleCI fixtures conform to CircleCI's OpenAPI response schemas", () => {
  const schemas = circleciFixture<Record<string, ExtractedSchema | string>>('openapi-responses.json');
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const check = (name: string, value: unknown): void => {
    const entry = schemas[name] as ExtractedSchema;
    const validate = ajv.compile(entry.schema);
    expect(validate(value), `${name} (${entry.endpoint}): ${ajv.errorsText(validate.errors)}`).to.equal(true);
  };

  for (const name of [
    'pipeline',
    'pipeline-created',
    'workflow',
    'workflow-jobs',
    'job-details',
    'message',
    'error',
    'workflow-list',
    'workflow-rerun',
    'job-tests',
    'flaky-tests',
  ]) {
    it(`${name}.json`, () => check(name, circleciFixture(`${name}.json`)));
  }

  it('every page of a scaled-up pipeline list', () => {
    const items = pipelines(45);
    let token: string | null = null;
    do {
      const query: URLSearchParams = new URLSearchParams(token === null ? {} : { 'page-token': token });
      const page = tokenPagedReply({ query } as never, items).body as { next_page_token: string | null };
      check('pipeline-list', page);
      token = page.next_page_token;
    } while (token !== null);
  });

  it('rejects a payload that breaks the schema (the check can fail)', () => {
    const broken = { ...circleciFixture('workflow.json'), status: 'exploded' };
    const validate = ajv.compile((schemas.workflow as ExtractedSchema).schema);
    expect(validate(broken)).to.equal(false);
  });
});
