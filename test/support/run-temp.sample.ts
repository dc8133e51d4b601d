// Run on its own by run-temp.test.ts (not a *.test file, so the suite does not run it): one test that makes a
// folder and a file under os.tmpdir(), as so many tests do, and says where.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('a test that makes temporary files', () => {
  it('makes a folder and a file in it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sample-'));
    writeFileSync(join(folder, 'raw.txt'), 'a raw text');
    writeFileSync(process.env.RUN_TEMP_RECORD!, folder);
  });
});
