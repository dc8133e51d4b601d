import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { Kernel } from '../../../core/kernel/kernel.js';
import { createLogger } from '../../../core/logging/logger.js';
import { openStore } from '../../../core/store/open-store.js';
import { createArtifactStore } from '../../../plugins/artifacts/artifact-service.js';
import { resolveConfig } from '../../../server/bootstrap/resolve-config.js';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { ATTACK, attackGithub } from '../../support/attack-github.js';
import { REPO_ROOT } from '../../support/paths.js';
import { StoreWithOutage } from '../../support/store-with-outage.js';

// Flow rules fail closed: while the shared store cannot be read, a session counts as having read untrusted and
// private content, so the shipped flow rule holds a write to a public place, and with the store down the hold
// is refused (store_unavailable) and nothing reaches GitHub. Back up, a session that read nothing writes.
describe('flow rules while the store is down (in-process kernel, the shipped flow policy)', () => {
  let github: MockUpstream;
  let kernel: Kernel;
  let store: StoreWithOutage;
  const principal = { subject: 'alice', groups: [], via: 'tokens' } as const;

  before(async () => {
    github = await attackGithub();
    const cwd = mkdtempSync(join(tmpdir(), 'flow-outage-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['github'] }));
    const { plugins, settings } = await resolveConfig({
      cwd,
      home: cwd,
      env: {
        GITHUB_API_URL: github.url,
        GITHUB_TOKEN: 'ghp_flowOutageToken0123456789abcd',
        MCP_POLICY_FILE: resolve(REPO_ROOT, 'examples/policies/untrusted-content.yaml'),
        MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'),
      },
    });
    store = new StoreWithOutage(await openStore('memory://'));
    kernel = await Kernel.start({
      plugins,
      settings,
      logger: createLogger({ level: 'fatal', secrets: settings.secretValues(), destination: { write: () => {} } }),
      store,
      artifactStore: createArtifactStore,
    });
  });
  after(async () => {
    await kernel?.close();
    await github?.close();
  });

  it('holds the write of a session whose facts cannot be read, and sends nothing; once the store is back, it runs', async () => {
    store.down = true;
    const held = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, { session: { conversation: 'c1' } });
    store.down = false;
    expect(held.isError).to.equal(true);
    expect(held._meta).to.deep.include({ code: 'store_unavailable' });
    expect(github.requests.filter((r) => r.method === 'POST')).to.have.length(0);
    const ran = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, { session: { conversation: 'c2' } });
    expect(ran.isError, JSON.stringify(ran.content)).to.equal(undefined);
    expect(github.requests.filter((r) => r.method === 'POST')).to.have.length(1);
  });
});
