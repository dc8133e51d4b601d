import { expect } from 'chai';
import { applyJq } from '../../../plugins/projection/apply-jq.js';

describe('applyJq: the projected value is plain JSON', () => {
  it('keeps a "__proto__" key of the upstream body a key, in a projection and in a copy of the whole', () => {
    const body = JSON.parse('{"issues":[{"key":"A-1","__proto__":{"polluted":true}},{"key":"A-2","__proto__":null}]}') as unknown;
    for (const mode of ['json', 'toon'] as const) {
      const whole = applyJq(body, 'issues', mode) as Array<Record<string, unknown>>;
      expect(JSON.stringify(whole)).to.equal('[{"key":"A-1","__proto__":{"polluted":true}},{"key":"A-2","__proto__":null}]');
      expect(Object.getPrototypeOf(whole[0])).to.equal(Object.prototype);
      expect(whole[0]!.polluted).to.equal(undefined);
      const picked = applyJq(body, 'issues[*].{k: key, p: "__proto__"}', mode) as Array<Record<string, unknown>>;
      expect(JSON.stringify(picked)).to.equal('[{"k":"A-1","p":{"polluted":true}},{"k":"A-2","p":null}]');
    }
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('makes of what JSON cannot hold what the renderer would: dropped from JSON objects, null in TOON and in arrays', () => {
    const value = { n: 1, big: Number.POSITIVE_INFINITY, list: [Number.NaN, 2] };
    expect(JSON.stringify(applyJq(value, '@', 'json'))).to.equal('{"n":1,"big":null,"list":[null,2]}');
    expect(applyJq(value, 'constructor', 'json')).to.equal(null);
    expect(applyJq(value, '{n: n, c: constructor}', 'json')).to.deep.equal({ n: 1 });
    expect(applyJq(value, '{n: n, c: constructor}', 'toon')).to.deep.equal({ n: 1, c: null });
  });
});
