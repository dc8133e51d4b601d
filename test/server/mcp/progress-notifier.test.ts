import type { ProgressNotificationParams } from '@modelcontextprotocol/server';
import { expect } from 'chai';
import { progressNotifier } from '../../../server/mcp/progress-notifier.js';

/** A notifier on a clock the test moves, recording what it would send. */
function recording(token: string | number | undefined = 'tok') {
  const sent: ProgressNotificationParams[] = [];
  let clock = 0;
  const report = progressNotifier(token, {
    send: async (params) => void sent.push(params),
    intervalMs: 100,
    now: () => clock,
  });
  return { sent, report, advance: (ms: number) => (clock += ms) };
}

describe('progressNotifier: notifications/progress of one call', () => {
  it('sends nothing when the request carried no progress token', () => {
    const sent: ProgressNotificationParams[] = [];
    const report = progressNotifier(undefined, { send: async (p) => void sent.push(p) });
    report(10, 100, 'reading');
    expect(sent).to.deep.equal([]);
  });

  it('sends the first report, then at most one per interval, and the one that completes a step', () => {
    const { sent, report, advance } = recording();
    report(1000, 10_000, 'reading the log');
    for (let done = 2000; done < 10_000; done += 1000) {
      advance(30);
      report(done, 10_000, 'reading the log');
    }
    advance(1);
    report(10_000, 10_000, 'reading the log');
    // 1000 at 0 ms; 4000 at 90 ms is too soon, 5000 at 120 ms is not; 9000 at 240 ms; the last always.
    expect(sent.map((p) => p.progress)).to.deep.equal([1000, 5000, 9000, 10_000]);
    expect(sent.every((p) => p.progressToken === 'tok' && p.total === 10_000 && p.message === 'reading the log')).to.equal(true);
  });

  it('omits total when the size is unknown, and never sends a value that does not grow', () => {
    const { sent, report, advance } = recording(7);
    report(500);
    advance(200);
    report(500);
    advance(200);
    report(800, undefined, 'still reading');
    expect(sent).to.deep.equal([
      { progressToken: 7, progress: 500 },
      { progressToken: 7, progress: 800, message: 'still reading' },
    ]);
  });

  it('counts a step that starts over after the steps before it, so progress keeps growing', () => {
    const { sent, report, advance } = recording();
    report(0, 3000, 'downloading');
    advance(200);
    report(3000, 3000, 'downloading');
    advance(200);
    report(1024, 3000, 'saving the artifact');
    advance(200);
    report(3000, 3000, 'saving the artifact');
    expect(sent.map((p) => [p.progress, p.total, p.message])).to.deep.equal([
      [0, 3000, 'downloading'],
      [3000, 3000, 'downloading'],
      [4024, 6000, 'saving the artifact'],
      [6000, 6000, 'saving the artifact'],
    ]);
  });

  it('ignores reports that are not counts', () => {
    const { sent, report } = recording();
    report(Number.NaN);
    report(-1, 10);
    report(Number.POSITIVE_INFINITY);
    expect(sent).to.deep.equal([]);
  });

  it('keeps the call going when a notification cannot be sent (the client left)', async () => {
    const report = progressNotifier('tok', { send: () => Promise.reject(new Error('closed')) });
    expect(() => report(1, 2)).not.to.throw();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
