import { expect } from 'chai';
import { format, inspect } from 'node:util';
import { SecretText } from '../../../core/identity/secret-text.js';
import { canary } from '../../support/canaries.js';

describe('SecretText: a credential in memory that no printing or serialising shows', () => {
  it('gives the value to reveal() only; JSON, String, templates, inspect, format, spread and structuredClone see [secret]', () => {
    const value = canary('gho_');
    const secret = new SecretText(value);
    const holder = { token: secret, nested: [{ secret }] };
    expect(secret.reveal()).to.equal(value);
    const shown = [
      JSON.stringify(holder),
      String(secret),
      `${secret}`,
      inspect(holder, { depth: 10, showHidden: true }),
      format('%o %O %s %j', secret, holder, secret, holder),
      JSON.stringify({ ...secret }),
      JSON.stringify(Object.entries(secret)),
      inspect(structuredClone({ secret })),
    ];
    for (const text of shown) expect(text).not.to.include(value);
    expect(JSON.stringify(holder)).to.equal('{"token":"[secret]","nested":[{"secret":"[secret]"}]}');
  });

  it('compares without revealing, and refuses an empty value', () => {
    expect(new SecretText('abc').equals(new SecretText('abc'))).to.equal(true);
    expect(new SecretText('abc').equals(new SecretText('abd'))).to.equal(false);
    expect(() => new SecretText('')).to.throw(TypeError);
  });
});
