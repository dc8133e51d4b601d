// Extracts from CircleCI's published OpenAPI description (API v2, JSON) what the tests hold the mock and the tools
// to: the response schemas the fixtures must validate against (test/fixtures/circleci/openapi-responses.json), and
// the request side of every operation a typed circleci_* tool sends (openapi-requests.json): its path and query
// parameters and its request body schema. $refs are inlined, `x-nullable` becomes a null type, descriptions and
// examples are dropped.
// Run: npm run build:tests && node build/test/scripts/extract-circleci-openapi.js PATH/TO/openapi-v2.json
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../support/paths.js';

type Json = Record<string, unknown>;

/** Fixture name -> the response whose schema it must match. */
const RESPONSES: Record<string, string> = {
  'pipeline-list': 'GET /project/{project-slug}/pipeline -> 200',
  pipeline: 'GET /pipeline/{pipeline-id} -> 200',
  'pipeline-created': 'POST /project/{project-slug}/pipeline -> 201',
  workflow: 'GET /workflow/{id} -> 200',
  'workflow-jobs': 'GET /workflow/{id}/job -> 200',
  'job-details': 'GET /project/{project-slug}/job/{job-number} -> 200',
  message: 'POST /workflow/{id}/cancel -> 202',
  error: 'GET /workflow/{id} -> default',
  'workflow-list': 'GET /pipeline/{pipeline-id}/workflow -> 200',
  'workflow-rerun': 'POST /workflow/{id}/rerun -> 202',
  'job-tests': 'GET /project/{project-slug}/{job-number}/tests -> 200',
  'flaky-tests': 'GET /insights/{project-slug}/flaky-tests -> 200',
};

/** Every operation a typed circleci_* tool sends (circleci_logs reads the v1.1 job detail, which v2 does not describe). */
const OPERATIONS = [
  'GET /project/{project-slug}/pipeline',
  'GET /pipeline/{pipeline-id}/workflow',
  'GET /workflow/{id}/job',
  'POST /workflow/{id}/rerun',
  'POST /project/{project-slug}/pipeline',
  'GET /project/{project-slug}/{job-number}/tests',
  'GET /insights/{project-slug}/flaky-tests',
];

const source = process.argv[2];
if (source === undefined) throw new Error('give the path of CircleCI openapi-v2.json');
const spec = JSON.parse(readFileSync(source, 'utf8')) as Json;

function dereference(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dereference);
  if (node === null || typeof node !== 'object') return node;
  const object = node as Json;
  if (typeof object.$ref === 'string') {
    const target = object.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)[key], spec);
    return dereference(target);
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) if (!['description', 'example', 'title', 'x-nullable'].includes(key)) out[key] = dereference(value);
  if (object['x-nullable'] === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}

const operation = (key: string): Json => {
  const [method = '', path = ''] = key.split(' ');
  return ((spec.paths as Json)[path] as Json)[method.toLowerCase()] as Json;
};

const responses: Json = {
  $comment:
    'Response schemas extracted from CircleCI API v2 OpenAPI (shared fixtures circleci/openapi-v2.json) by test/scripts/extract-circleci-openapi.ts: x-nullable turned into a null type, descriptions and examples dropped. Keys name the fixture files they check.',
};
for (const [name, endpoint] of Object.entries(RESPONSES)) {
  const [key, status = ''] = endpoint.split(' -> ');
  const response = dereference((operation(key!).responses as Json)[status]) as Json;
  responses[name] = { endpoint, schema: ((response.content as Json)['application/json'] as Json).schema };
}

const requests: Json = {
  $comment:
    "The request side of every operation a typed circleci_* tool sends, from CircleCI API v2 OpenAPI (shared fixtures circleci/openapi-v2.json) by test/scripts/extract-circleci-openapi.ts. pageToken: the 200 answer's next_page_token is documented as the page-token query parameter of this operation (its links, or its description).",
};
for (const key of OPERATIONS) {
  const [, path = ''] = key.split(' ');
  const op = operation(key);
  const shared = (((spec.paths as Json)[path] as Json).parameters ?? []) as unknown[];
  const parameters = [...shared, ...((op.parameters ?? []) as unknown[])].map(dereference) as Array<{ name: string; in: string; required?: boolean }>;
  const ok = dereference(Object.entries(op.responses as Json).find(([status]) => status.startsWith('2'))?.[1]) as Json;
  const schema = ((ok.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  const links = JSON.stringify((operation(key).responses as Json)['200'] ?? {});
  const body = op.requestBody === undefined ? null : (((dereference(op.requestBody) as Json).content as Json)['application/json'] as Json).schema;
  requests[key] = {
    operationId: op.operationId,
    path: parameters.filter((p) => p.in === 'path').map((p) => p.name),
    query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
    pageToken: schema?.properties !== undefined && 'next_page_token' in (schema.properties as Json) && links.includes('page-token'),
    body,
  };
}

const dir = resolve(REPO_ROOT, 'test/fixtures/circleci');
writeFileSync(resolve(dir, 'openapi-responses.json'), `${JSON.stringify(responses, null, 1)}\n`);
writeFileSync(resolve(dir, 'openapi-requests.json'), `${JSON.stringify(requests, null, 1)}\n`);
process.stdout.write('test/fixtures/circleci/openapi-responses.json and openapi-requests.json written\n');
