import { tapEveryKernel } from './kernel-taps.js';
import { leakAudit } from './leak-audit.js';
import { RUN_TEMP, removeRunTemp } from '../run-temp.js';

let removing = false;
/** A worker's temporary folder, removed when the worker exits (its files share it until then). */
function removeAtExit(): void {
  if (removing) return;
  removing = true;
  process.once('exit', removeRunTemp);
}

/**
 * Mocha root hooks (loaded with `--require`, see package.json): before any test, every kernel the process will
 * start is tapped; after the last test, the collected results, logs, store writes and transcripts, and every
 * watched file, must hold none of the secrets the suite used. A leak fails the run, naming where it was. Then the
 * run's temporary folder is removed (run-temp.ts), unless it holds a leak. Under `--parallel` (test:parallel) mocha
 * runs these around each file in its worker: each file is audited as it ends.
 */
export const mochaHooks = {
  beforeAll(): void {
    tapEveryKernel();
  },
  afterAll(this: Mocha.Context): void {
    // Reading every watched file takes as long as the machine makes it (100 MB and more, a busy CI runner): no
    // time limit here, so the suite never fails for the machine's sake.
    this.timeout(0);
    // With --parallel, mocha runs root hooks around each file in a worker: each file is audited as it ends, and
    // the worker's temporary folder goes when the worker exits.
    const worker = process.env.MOCHA_WORKER_ID !== undefined;
    const { leaks, figures } = leakAudit.finish(worker);
    const summary =
      `secret leak check: ${figures.canaries} canary forms; scanned ${figures.results} results, ${figures.logLines} log lines, ` +
      `${figures.storeWrites} store writes, ${figures.transcripts} child-process transcripts, ${figures.files} files (${figures.fileBytes} bytes); ` +
      `leaks found: ${leaks.length}`;
    process.stdout.write(`\n  ${summary}\n`);
    // Once read, the run's temporary folder goes, unless it holds a leak to be looked at.
    if (leaks.length === 0) {
      if (worker) removeAtExit();
      else removeRunTemp();
    } else {
      const shown = leaks
        .slice(0, 20)
        .map((l) => `  - ${l.canary} in ${l.where}`)
        .join('\n');
      throw new Error(
        `${summary}\n${shown}${leaks.length > 20 ? `\n  ... and ${leaks.length - 20} more` : ''}\n  (the run's temporary files are kept in ${RUN_TEMP})`,
      );
    }
  },
};
