import { expect } from 'chai';
import { tailOfLog } from '../../../core/vendor/log-tail.js';

describe('tailOfLog (the end of a job log, within a character budget)', () => {
  it('keeps the last lines, ignoring the final newline', () => {
    expect(tailOfLog('a\nb\nc\n', 2, 100)).to.deep.equal({ text: 'b\nc', shown: 2, total: 3, clipped: false });
  });

  it('shows the whole log when fewer lines exist than asked', () => {
    expect(tailOfLog('a\nb', 500, 100)).to.deep.equal({ text: 'a\nb', shown: 2, total: 2, clipped: false });
  });

  it('keeps empty lines, including a leading one', () => {
    expect(tailOfLog('\nx\n\ny\n', 10, 100)).to.deep.equal({ text: '\nx\n\ny', shown: 4, total: 4, clipped: false });
  });

  it('normalises CRLF line ends', () => {
    expect(tailOfLog('a\r\nb\r\nc\r\n', 2, 100)).to.deep.equal({ text: 'b\nc', shown: 2, total: 3, clipped: false });
  });

  it('stops before a line that would exceed the budget and says so', () => {
    expect(tailOfLog('long line here\nab\ncd\n', 3, 6)).to.deep.equal({ text: 'ab\ncd', shown: 2, total: 3, clipped: true });
  });

  it('keeps the end of a last line longer than the budget', () => {
    expect(tailOfLog('x\n0123456789\n', 5, 4)).to.deep.equal({ text: '6789', shown: 1, total: 2, clipped: true });
  });

  it('says an empty log has no lines', () => {
    expect(tailOfLog('', 5, 100)).to.deep.equal({ text: '', shown: 0, total: 0, clipped: false });
  });
});
