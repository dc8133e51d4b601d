import { expect } from 'chai';
import { liveScrub, scrubJsonValue, secretScrubber, type Scrub } from '../../../core/result/secret-scrubber.js';

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

  it('redacts a key or string exactly as long as the shortest form, through a live scrubber too', () => {
    // 'hunter22' is the shortest form (8): strings shorter than it are let through without a search.
    let current: Scrub = secretScrubber(['s3cr3t-token']);
    const live = liveScrub(() => current);
    const value = { hunter22: ['hunter22', 'hunter2', { k: 'hunter22' }], short: 'hunter2' };
    expect(scrubJsonValue(value, live)).to.equal(value);
    current = scrub;
    expect(live.shortestForm).to.equal(8);
    expect(scrubJsonValue(value, live)).to.deep.equal({ '[REDACTED]': ['[REDACTED]', 'hunter2', { k: '[REDACTED]' }], short: 'hunter2' });
  });

  it('counts every node against the walk budget, containers and leaves alike', () => {
    const value = { a: [1, 'two', { b: null }], c: 'four' }; // root, a, 1, 'two', {b}, null, 'four': 7 nodes
    const budget = (left: number) => ({ left, exceeded: () => new Error('too many nodes') });
    expect(scrubJsonValue(value, scrub, budget(7))).to.equal(value);
    expect(() => scrubJsonValue(value, scrub, budget(6))).to.throw('too many nodes');
  });

  it('returns the very same value when there is nothing to redact', () => {
    const value = { a: [1, 'two', { three: [null, true] }], b: 'four' };
    expect(scrubJsonValue(value, scrub)).to.equal(value);
  });
});

describe('secretScrubber: every form, every overlap', () => {
  it('redacts a secret that contains another whole, whichever is configured first (the shortest-first mutation)', () => {
    for (const secrets of [
      ['abcd1234', 'abcd1234efgh5678'],
      ['abcd1234efgh5678', 'abcd1234'],
    ]) {
      expect(secretScrubber(secrets)('key=abcd1234efgh5678;')).to.equal('key=[REDACTED];');
    }
  });

  it("leaves no tail of a secret whose head is another secret's tail", () => {
    for (const secrets of [
      ['xxxxyyyy', 'yyyyzzzz'],
      ['yyyyzzzz', 'xxxxyyyy'],
    ]) {
      const scrub = secretScrubber(secrets);
      expect(scrub('a xxxxyyyyzzzz b')).to.equal('a [REDACTED] b');
      expect(scrub('xxxxyyyy yyyyzzzz')).to.equal('[REDACTED] [REDACTED]');
    }
  });

  it('redacts repeated and self-overlapping occurrences', () => {
    expect(secretScrubber(['abab'])('ababab abab')).to.equal('[REDACTED] [REDACTED]');
  });

  it('redacts the forms a secret travels in: URL-encoded (either hex case), JSON-escaped, base64 and Basic secret:', () => {
    const secret = 'tok+en/with="quote"';
    const scrub = secretScrubber([secret]);
    for (const form of [
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString('base64'),
      Buffer.from(`${secret}:`).toString('base64'),
    ]) {
      expect(scrub(`<${form}>`), form).to.equal('<[REDACTED]>');
    }
  });

  it('redacts forms handed over whole (a Basic user:secret value) beside the secrets', () => {
    const basic = Buffer.from('bot@example.com:s3cr3t-token').toString('base64');
    expect(secretScrubber(['s3cr3t-token'], [basic])(`Authorization: Basic ${basic}`)).to.equal('Authorization: Basic [REDACTED]');
  });

  it('redacts a form that holds another as one span, in short strings and in long texts alike', () => {
    // Only the inner form is looked for to tell whether any is there; the spans still come from every form.
    const basic = Buffer.from('bot@example.com:s3cr3t-token').toString('base64');
    const scrub = secretScrubber(['s3cr3t-token'], [`Basic ${basic}`, basic]);
    for (const pad of ['', 'x'.repeat(5000)]) {
      expect(scrub(`${pad}Authorization: Basic ${basic}; again ${basic}.`)).to.equal(`${pad}Authorization: [REDACTED]; again [REDACTED].`);
      expect(scrub(`${pad}Basic ${basic.slice(0, -1)} and Basic`)).to.equal(`${pad}Basic ${basic.slice(0, -1)} and Basic`);
    }
  });

  it('finds secrets made of characters that mean something in a regular expression, and only them', () => {
    const secrets = ['a.b*c+d?e^f$g', '(x|y)[z]{2}', 'back\\slash/-dash', 'line\nbreak'];
    const scrub = secretScrubber(secrets);
    for (const secret of secrets) expect(scrub(`<${secret}>`), secret).to.equal('<[REDACTED]>');
    // What those characters would match as a pattern is not the secret: it stays.
    for (const lookalike of ['aXbbbcdde^f$g', 'ab*c+d?e^f$g', 'x[z]{2}', '-xzz-', 'back\\slash/Xdash', 'lineXbreak']) {
      expect(scrub(`<${lookalike}>`), lookalike).to.equal(`<${lookalike}>`);
    }
  });

  // Long texts (renderings, cut texts) are searched form by form, short strings with one regular expression:
  // both must find every form wherever it sits, and the same spans.
  it('redacts every form, in short strings and in long texts alike, at the start, the end and in between', () => {
    const secret = 'tok+en/with="quote"';
    const scrub = secretScrubber([secret, 'abab']);
    const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(`${secret}:`).toString('base64'), 'ababab'];
    const filler = 'x'.repeat(6000);
    for (const form of forms) {
      const expected = '[REDACTED]';
      expect(scrub(form), form).to.equal(expected);
      expect(scrub(`${form}${filler}${form} ${form}${filler}${form}`), form).to.equal(`${expected}${filler}${expected} ${expected}${filler}${expected}`);
    }
    expect(scrub(filler)).to.equal(filler);
  });

  it('counts every node it visits against the walk budget, leaves included, and refuses one over it', () => {
    // The root, `a`, its three leaves, the object in it and its leaf, and `c`: 8 nodes; the keys are not nodes.
    const value = { a: [1, 'x hunter22', null, { b: true }], c: 'y' };
    const budget = (left: number) => ({ left, exceeded: () => new Error('too many nodes') });
    expect(scrubJsonValue(value, scrub, budget(8))).to.deep.equal({ a: [1, 'x [REDACTED]', null, { b: true }], c: 'y' });
    expect(() => scrubJsonValue(value, scrub, budget(7))).to.throw('too many nodes');
    const shared = { leaf: 'z' };
    // A part shared by reference counts each time it appears: 1 + 2 x (1 + 1).
    expect(() => scrubJsonValue([shared, shared], scrub, budget(4))).to.throw('too many nodes');
    expect(scrubJsonValue([shared, shared], scrub, budget(5))).to.deep.equal([shared, shared]);
  });

  it('keeps a key that scrubbing turns into __proto__ a key', () => {
    const scrubbed = scrubJsonValue({ ['__proto__hunter22'.replace('hunter22', '')]: 1, hunter22: 2 } as Record<string, unknown>, scrub);
    expect(Object.keys(scrubbed)).to.include('[REDACTED]');
  });
});
