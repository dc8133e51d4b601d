import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createLogger } from '../../../core/logging/logger.js';
import { RawResponseFiles } from '../../../plugins/truncation/raw-response-files.js';

describe('the full text of truncated results on disk', () => {
  const logger = createLogger({ level: 'silent', secrets: [], destination: { write: () => true } });

  it('saves each text to an owner-only file in an owner-only folder', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    const path = await files.save('the whole text');
    files.stop();
    expect(readFileSync(path!, 'utf8')).to.equal('the whole text');
    expect(statSync(path!).mode & 0o777).to.equal(0o600);
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
  });

  it('makes the folder again, owner-only, when it was removed while the server ran', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'raw-files-')), 'raw');
    const files = new RawResponseFiles(dir, 60_000, logger, () => Date.now());
    await files.start();
    rmSync(dir, { recursive: true });
    const path = await files.save('saved after all');
    files.stop();
    expect(readFileSync(path!, 'utf8')).to.equal('saved after all');
    expect(statSync(dir).mode & 0o777).to.equal(0o700);
  });
});
