import { expect } from 'chai';
import { decodedTextBytes } from '../../../core/text/large-string.js';

describe('decodedTextBytes: at most how many bytes a body takes once decoded to a string', () => {
  it('one a byte for ASCII', () => {
    expect(decodedTextBytes(Buffer.from('{"key": "PROJ-1", "summary": "plain"}'))).to.equal(37);
  });

  it('two a byte once any character is past ASCII: a curly quote makes the whole text UTF-16', () => {
    const bytes = Buffer.from(`{"summary": "${'x'.repeat(1000)} \u201cquoted\u201d"}`);
    expect(decodedTextBytes(bytes)).to.equal(2 * bytes.length);
    expect(decodedTextBytes(bytes)).to.be.at.least(2 * bytes.toString('utf8').length);
  });

  it('an empty body takes nothing', () => {
    expect(decodedTextBytes(Buffer.alloc(0))).to.equal(0);
  });
});
