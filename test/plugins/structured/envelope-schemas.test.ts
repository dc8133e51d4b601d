import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as Sdk1AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import type { TSchema } from 'typebox';
import { PagedEnvelope, ReadEnvelope } from '../../../core/schema/envelopes.js';
import { CircleCiReadEnvelope } from '../../../plugins/circleci/read-envelope.js';
import { schemaProblems } from '../../../core/schema/schema-check.js';
import { outputSchemaOf } from '../../../plugins/structured/output-schema.js';

const incomplete = { reason: 'size', bytes: 403117, limitBytes: 262144, artifactId: '6f1c0c7e2b0d4a8f9e3b5d7c1a2f4e6b' };
const cache = { hit: false, ageMs: 0, fetchedAt: '2026-10-07T16:20:11.402Z' };

interface Case {
  name: string;
  schema: TSchema;
  required: string[];
  valid: Record<string, unknown>[];
  invalid: Array<[string, unknown]>;
}

/** Every envelope of the contract, with the spec's own examples and the mistakes each must catch. */
const CASES: Case[] = [
  {
    name: 'Paged',
    schema: PagedEnvelope,
    required: ['data', 'nextPage'],
    valid: [
      { data: { total_count: 0, workflow_runs: [] }, nextPage: null },
      { data: [30433642], nextPage: null },
      { data: { total_count: 61, workflow_runs: [] }, nextPage: 2 },
      { data: null, nextPage: 2, incomplete },
      { data: null, nextPage: null, incomplete: { reason: 'unavailable', bytes: 0, limitBytes: 0, artifactId: null } },
    ],
    invalid: [
      ['nextPage 0', { data: [], nextPage: 0 }],
      ['nextPage as a string', { data: [], nextPage: '2' }],
      ['an unknown key', { data: [], nextPage: null, page: 1 }],
      ['an unknown reason', { data: null, nextPage: null, incomplete: { ...incomplete, reason: 'timeout' } }],
      ['incomplete without artifactId', { data: null, nextPage: null, incomplete: { reason: 'size', bytes: 1, limitBytes: 0 } }],
      ['a negative size', { data: null, nextPage: null, incomplete: { ...incomplete, bytes: -1 } }],
    ],
  },
  {
    name: 'CircleCI read',
    schema: CircleCiReadEnvelope,
    required: ['data', 'cache'],
    valid: [
      { data: { items: [{ id: '5034460f-...', state: 'created', number: 42 }], next_page_token: 'AARLwwV...' }, cache },
      { data: ['5034460f-...'], cache: { hit: true, ageMs: 2140, fetchedAt: '2026-10-07T16:20:11.402Z' } },
      { data: null, cache, incomplete },
    ],
    invalid: [
      ['cache without fetchedAt', { data: {}, cache: { hit: true, ageMs: 1 } }],
      ['a negative age', { data: {}, cache: { ...cache, ageMs: -1 } }],
      ['hit as a string', { data: {}, cache: { ...cache, hit: 'yes' } }],
    ],
  },
  {
    name: 'Atlassian read',
    schema: ReadEnvelope,
    required: ['data'],
    valid: [
      { data: { issues: [{ key: 'PLAT-1' }, { key: 'PLAT-2' }], isLast: true } },
      { data: ['PLAT-1', 'PLAT-2'] },
      { data: 'diff --git a/README.md b/README.md\n...' },
      { data: {} },
      { data: null, incomplete },
    ],
    invalid: [['tool metadata it does not have', { data: {}, nextPage: null }]],
  },
];

type Verdict = (value: unknown) => boolean;
const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
const sdk = new AjvJsonSchemaValidator();
const sdk1 = new Sdk1AjvJsonSchemaValidator();

// The validators a program meets: an independent 2020-12 one, and the official SDK clients' own (v2, and the 1.x
// line that older clients still run).
const validators: Record<string, (schema: Record<string, unknown>) => Verdict> = {
  '2020-12': (schema) => {
    const validate = ajv2020.compile(schema);
    return (v) => validate(v);
  },
  'SDK client (v2)': (schema) => {
    const validate = sdk.getValidator(schema as never);
    return (v) => validate(v).valid;
  },
  'SDK client (1.x)': (schema) => {
    const validate = sdk1.getValidator(schema as never);
    return (v) => validate(v).valid;
  },
};

describe('envelope schemas of the structured contract', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      const schema = outputSchemaOf(c.schema);

      it('is a valid JSON Schema 2020-12, object-rooted, with anyOf never oneOf and no $schema', () => {
        expect(schemaProblems(c.schema)).to.equal(undefined);
        expect(schema.type).to.equal('object');
        expect(JSON.stringify(schema)).not.to.contain('oneOf');
        expect(JSON.stringify(schema)).to.contain('anyOf');
        expect(schema).not.to.have.property('$schema');
      });

      it(`requires exactly ${c.required.join(', ')}`, () => {
        expect(schema.required).to.have.members(c.required);
      });

      it('names each missing required key (2020-12 errors)', () => {
        const validate = ajv2020.compile(schema);
        for (const key of c.required) {
          const { [key]: _gone, ...lacking } = c.valid[0]!;
          expect(validate(lacking)).to.equal(false);
          expect(validate.errors?.some((e) => e.keyword === 'required' && (e.params as { missingProperty?: string }).missingProperty === key)).to.equal(true);
        }
      });

      for (const [label, compile] of Object.entries(validators)) {
        const validate = compile(schema);

        it(`${label}: accepts the spec's examples`, () => {
          for (const v of c.valid) expect(validate(v), JSON.stringify(v)).to.equal(true);
        });

        it(`${label}: rejects an empty object and every object lacking one required key`, () => {
          expect(validate({})).to.equal(false);
          for (const key of c.required) {
            const { [key]: _gone, ...lacking } = c.valid[0]!;
            expect(validate(lacking), `lacking ${key}`).to.equal(false);
          }
        });

        it(`${label}: rejects ${c.invalid.map(([n]) => n).join(', ')}`, () => {
          for (const [name, v] of c.invalid) expect(validate(v), name).to.equal(false);
        });
      }
    });
  }
});
