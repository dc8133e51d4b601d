import { expect } from 'chai';
import { cursorFromNext, pagingFromCursor } from '../../../plugins/bitbucket/page-cursor.js';

describe("Bitbucket cursors: a next URL's page, nothing else of it", () => {
  it("takes the page of Bitbucket's next URL, absolute or relative, and nothing else", () => {
    expect(cursorFromNext('https://api.bitbucket.org/2.0/repositories/acme/api/pullrequests?state=OPEN&page=3&pagelen=10')).to.equal('3');
    expect(cursorFromNext('/2.0/repositories/acme/api/commits?page=b2Zmc2V0')).to.equal('b2Zmc2V0');
    expect(cursorFromNext('https://evil.example/elsewhere?page=2&redirect=https://evil.example')).to.equal('2');
  });

  it('has no cursor on the last page, or when next names no usable page', () => {
    for (const next of [undefined, null, '', 42, 'https://api.bitbucket.org/2.0/x', 'https://api.bitbucket.org/2.0/x?page=../../user', 'http://[bad'])
      expect(cursorFromNext(next), String(next)).to.equal(null);
  });

  it('sends a cursor as the page query parameter only, and refuses any other shape', () => {
    expect(pagingFromCursor(undefined)).to.deep.equal({});
    expect(pagingFromCursor('3')).to.deep.equal({ page: '3' });
    for (const cursor of ['', '2&q=x', '../user', 'https://evil.example/?page=2', 'x'.repeat(201)])
      expect(() => pagingFromCursor(cursor), cursor).to.throw('cursor is not a nextCursor');
  });
});
