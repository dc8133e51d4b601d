import { expect } from 'chai';
import { cleanTerminalOutput, collapseRepeatedLines } from '../../../core/vendor/clean-log.js';

describe('cleanTerminalOutput (terminal output as it was left on screen)', () => {
  it('removes colour, cursor and title escapes, and keeps the text between them', () => {
    expect(cleanTerminalOutput('\u001b[1;31mERROR\u001b[0m: \u001b[2Kboom\u001b]0;npm test\u0007 done\u001b[?25h')).to.equal('ERROR: boom done');
  });

  it('turns CRLF into LF and keeps what a progress bar drew last', () => {
    expect(cleanTerminalOutput('ok\r\n10%\r50%\r100%\r\nnext\r\n')).to.equal('ok\n100%\nnext\n');
  });

  it('leaves plain text unchanged', () => {
    expect(cleanTerminalOutput('a\n\nb  c\tend\n')).to.equal('a\n\nb  c\tend\n');
  });
});

describe('collapseRepeatedLines', () => {
  it('shows a run of the same line once, with its count', () => {
    expect(collapseRepeatedLines('wait\nwait\nwait\nfailed\n')).to.equal('wait  [repeated 3 times]\nfailed\n');
  });

  it('keeps one blank line of a blank run, and the final newline', () => {
    expect(collapseRepeatedLines('a\n\n\n\nb\n')).to.equal('a\n\nb\n');
    expect(collapseRepeatedLines('a\n\n\n')).to.equal('a\n\n');
  });

  it('does not merge lines that only look alike, nor runs apart', () => {
    expect(collapseRepeatedLines('x\nx \nx\ny\nx\nx')).to.equal('x\nx \nx\ny\nx  [repeated 2 times]');
  });
});
