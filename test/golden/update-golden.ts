// Regenerates the golden files on purpose: `npm run golden:update`, then review the diff before committing.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOLDEN_DIR, goldenSnapshots } from './golden-snapshots.js';

for (const [name, content] of Object.entries(await goldenSnapshots())) {
  writeFileSync(join(GOLDEN_DIR, name), content);
  process.stdout.write(`wrote test/golden/${name} (${content.length} bytes)\n`);
}
