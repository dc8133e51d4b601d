import { expect } from 'chai';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { compiledInput, prepareCall } from '../../../core/pipeline/prepare-call.js';
import type { ToolDefinition } from '../../../core/plugin/contract.js';
import { nestsDeeperThan, tooDeeplyNested } from '../../../core/schema/argument-depth.js';

function toolWith(input: ReturnType<typeof Type.Object>): ToolDefinition {
  return {
    spec: { name: 'demo_get', description: 'demo', annotations: { readOnlyHint: true }, input },
    plugin: 'demo',
    handler: () => Promise.resolve({ value: {} }),
  } as unknown as ToolDefinition;
}

describe('prepareCall: the arguments a handler sees', () => {
  it('applies the defaults a schema declares, nested ones and those inside a union member too', () => {
    const input = Type.Object({
      path: Type.String(),
      page: Type.Optional(Type.Integer({ default: 1 })),
      options: Type.Optional(Type.Object({ depth: Type.Integer({ default: 3 }) }, { default: {} })),
      mode: Type.Union([Type.Object({ kind: Type.Literal('a'), size: Type.Integer({ default: 10 }) }), Type.String()]),
    });
    const args = prepareCall(toolWith(input), compiledInput(Compile(input), input), { path: '/x', mode: { kind: 'a' } }).args;
    expect(args).to.deep.equal({ path: '/x', page: 1, options: { depth: 3 }, mode: { kind: 'a', size: 10 } });
  });

  it('gives a schema without defaults a copy of the arguments as they came, never the caller’s own object', () => {
    const input = Type.Object({ path: Type.String(), queryParams: Type.Optional(Type.Record(Type.String(), Type.String())), jq: Type.Optional(Type.String()) });
    const raw = { path: '/rest/api/3/search', queryParams: { maxResults: '50' } };
    const args = prepareCall(toolWith(input), compiledInput(Compile(input), input), raw).args;
    expect(args).to.deep.equal(raw);
    expect(args).not.to.equal(raw);
    expect(args.queryParams).not.to.equal(raw.queryParams);
  });

  it('refuses arguments a defaulted schema cannot take as invalid_arguments naming the field, not as a failed tool', () => {
    // typebox's Value.Default throws on a record whose key pattern refuses a key; the caller must still learn
    // what to fix (bb_run_pipeline's variables with a timeoutSeconds default did this).
    const input = Type.Object(
      {
        variables: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_]\\w*$' }), Type.String(), { additionalProperties: false })),
        timeoutSeconds: Type.Optional(Type.Integer({ default: 300 })),
      },
      { additionalProperties: false },
    );
    let thrown: unknown;
    try {
      prepareCall(toolWith(input), compiledInput(Compile(input), input), { variables: { 'DEPLOY-ENV': 'staging' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.include({ code: 'invalid_arguments' });
    expect(String((thrown as Error).message)).to.match(/variables/);
    expect(prepareCall(toolWith(input), compiledInput(Compile(input), input), { variables: { DEPLOY_ENV: 'staging' } }).args).to.deep.equal({
      variables: { DEPLOY_ENV: 'staging' },
      timeoutSeconds: 300,
    });
  });
});

describe('nestsDeeperThan: the depth bound of arguments and response bodies', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { next: value } : [value];
    return value;
  };

  it('passes a value exactly at the bound and refuses one level more, in objects and arrays alike', () => {
    // `levels` containers: the innermost sits at depth levels - 1.
    expect(nestsDeeperThan(nested(513), 512)).to.equal(false);
    expect(nestsDeeperThan(nested(514), 512)).to.equal(true);
    expect(nestsDeeperThan({ a: 1, b: [1, 2, { c: 'x' }] }, 1)).to.equal(true);
    expect(nestsDeeperThan({ a: 1, b: [1, 2, 'x'] }, 1)).to.equal(false);
  });

  it('answers for a value nested a million levels deep without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(1_000_000), 512)).to.equal(true);
    expect(tooDeeplyNested({ ok: 1, body: nested(1_000_000) })).to.equal('body');
  });
});
