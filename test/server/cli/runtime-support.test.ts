import { expect } from 'chai';
import { endOfLifeNotice, OLDEST_SUPPORTED_NODE } from '../../../server/cli/runtime-support.js';

describe('the runtime notice', () => {
  it('names a Node.js older than the supported ones, and what to run instead', () => {
    const notice = endOfLifeNotice('20.20.2');
    expect(notice).to.include('Node.js 20.20.2 is past end of life');
    expect(notice).to.include('supports Node.js 22 and 24');
    expect(endOfLifeNotice('18.0.0')).to.be.a('string');
  });

  it('says nothing on Node 22 and later', () => {
    expect(OLDEST_SUPPORTED_NODE).to.equal(22);
    for (const version of ['22.0.0', '22.23.5', '24.22.3', '25.1.0']) expect(endOfLifeNotice(version), version).to.equal(undefined);
  });
});
