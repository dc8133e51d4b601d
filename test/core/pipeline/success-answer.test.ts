import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Call, Produced } from '../../../core/plugin/call.js';
import { successAnswer } from '../../../core/pipeline/answer.js';

/** The part of a call successAnswer reads (its meta), and what the stages produced. */
const call = { meta: {} } as unknown as Call;
const successResult = (text: string, structured: unknown): CallToolResult =>
  successAnswer(call, { output: {}, value: structured, text, structured: structured as Produced['structured'] }).result;

describe('successAnswer: the text, and a non-object structured value as its JSON', () => {
  it('keeps one text block beside an object value (the contract of the built-in envelopes)', () => {
    expect(successResult('data: 1', { data: 1 }).content).to.deep.equal([{ type: 'text', text: 'data: 1' }]);
  });

  it('adds the JSON of a non-object value as a second text block when the text is something else (TOON)', () => {
    const result = successResult('[3]: 3,1,2', [3, 1, 2]);
    expect(result.structuredContent).to.deep.equal([3, 1, 2]);
    expect(result.content).to.deep.equal([
      { type: 'text', text: '[3]: 3,1,2' },
      { type: 'text', text: '[3,1,2]' },
    ]);
  });

  it('adds nothing when the text already is exactly that JSON (a number, null, compact JSON)', () => {
    for (const [text, value] of [
      ['42', 42],
      ['null', null],
      ['"v1.2"', 'v1.2'],
    ] as const) {
      expect(successResult(text, value).content, text).to.deep.equal([{ type: 'text', text }]);
    }
  });
});
