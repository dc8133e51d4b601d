// The MCP SDK declares every protocol schema (some 180 zod schemas, about a thousand zod objects with their
// parts) as a module constant; the bundle builds each when first read (rollup/lazy-core-schemas.mjs), so a start
// builds only what its first requests validate. Counted from outside: a preload counts the zod objects the
// server process makes (test/support/zod-schema-count.cjs) until it exits. That requests are still validated by
// schemas built later is test/e2e/request-validation.test.ts.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';
import { connectStdioAs } from '../support/sdk-client.js';

const PRELOAD = join(REPO_ROOT, 'test/support/zod-schema-count.cjs');
/** What the old build made before its first tools/list: 1,180 (1,073 of them as the SDK was imported). */
const AT_MOST = 400;

async function exitedWith(file: string): Promise<number> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(50);
  return Number(readFileSync(file, 'utf8'));
}

describe('the zod schemas a start builds (dist/cli.js over stdio)', () => {
  for (const kind of ['sdk1', 'v2-auto'] as const) {
    it(`builds only what initialize and tools/list read, not every protocol schema (${kind} client)`, async () => {
      const count = join(mkdtempSync(join(tmpdir(), 'mcp-devtools-zod-')), 'count');
      const server = await connectStdioAs(kind, { env: { ZOD_SCHEMA_COUNT: count, NODE_OPTIONS: `--require ${PRELOAD}` } });
      try {
        const { tools } = await server.client.listTools();
        expect(tools.length).to.be.greaterThan(30);
      } finally {
        await server.close();
      }
      const built = await exitedWith(count);
      expect(built).to.be.greaterThan(0);
      expect(built).to.be.at.most(AT_MOST);
    });
  }
});
