import { expect } from 'chai';
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describeValidationErrors } from '../../../core/schema/validation-errors.js';

const describe_ = (schema: TSchema, value: unknown): string[] => describeValidationErrors(Compile(schema).Errors(value), value, schema);

describe('validation error messages', () => {
  it("lists every allowed value of a long union of literals, beyond TypeBox's cap of 8 errors", () => {
    const states = [
      'queued',
      'in_progress',
      'completed',
      'action_required',
      'cancelled',
      'failure',
      'neutral',
      'skipped',
      'stale',
      'success',
      'timed_out',
      'waiting',
    ];
    const schema = Type.Object({ status: Type.Union(states.map((s) => Type.Literal(s))) });
    expect(describe_(schema, { status: 'done' })).to.deep.equal([`- status: must be one of ${states.map((s) => JSON.stringify(s)).join(', ')} (got "done")`]);
  });

  it('names a missing field, an unknown one and a wrong type in one answer', () => {
    const schema = Type.Object({ owner: Type.String(), perPage: Type.Optional(Type.Integer({ maximum: 100 })) }, { additionalProperties: false });
    expect(describe_(schema, { perPage: 500, colour: 'red' })).to.deep.equal([
      '- owner: is required',
      '- colour: is not a known argument',
      '- perPage: must be <= 100 (got 500)',
    ]);
  });
});
