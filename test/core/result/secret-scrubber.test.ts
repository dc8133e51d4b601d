import { expect } from 'chai';
import { scrubJsonValue, secretScrubber } from '../../../core/result/secret-scrubber.js';

const scrub = secretScrubber(['s3cr3t-token', 'hunter22']);

describe('scrubJsonValue: secrets out of structured values', () => {
  it('redacts secrets in nested strings and keys, wherever they are', () => {
    const value = { a: [1, 'x s3cr3t-token y', { deep: ['ok', 'hunter22'] }], 'key-hunter22': true, plain: { n: 1 } };
    expect(scrubJsonValue(value, scrub)).to.deep.equal({
      a: [1, 'x [REDACTED] y', { deep: ['ok', '[REDACTED]'] }],
      'key-[REDACTED]': true,
      plain: { n: 1 },
    });
  });

  it('keeps the order of keys and array items around what it redacts', () => {
    const scrubbed = scrubJsonValue({ first: 1, second: 'hunter22', third: [0, 'hunter22', 2] }, scrub);
    expect(Object.keys(scrubbed)).to.deep.equal(['first', 'second', 'third']);
    expect(scrubbed.third).to.deep.equal([0, '[REDACTED]', 2]);
  });

  it('leaves the input untouched and shares what did not change', () => {
    const untouched = { n: [1, 2, { m: 'fine' }] };
    const value = { secret: 'hunter22', untouched };
    const scrubbed = scrubJsonValue(value, scrub);
    expect(value.secret).to.equal('hunter22');
    expect(scrubbed.untouched).to.equal(untouched);
  });

  it('returns the very same value when there is nothing to redact', () => {
    const value = { a: [1, 'two', { three: [null, true] }], b: 'four' };
    expect(scrubJsonValue(value, scrub)).to.equal(value);
  });
});
