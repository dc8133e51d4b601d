import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import type { ClientChannel } from '../../../core/kernel/call-options.js';
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
        MCP_TOOLSETS: 'all',
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

  /** The channel of a 2026-07-28 client that declared form mode: what the call asks, and the answer its retry carries. */
  function askingChannel(answered?: { action: 'accept'; state: string }): { channel: ClientChannel; asked: Array<{ message: string; state: string }> } {
    const asked: Array<{ message: string; state: string }> = [];
    const channel: ClientChannel = {
      notify: async () => {},
      resourceLinks: false,
      toolsChanged: async () => {},
      confirmByRetry: { ...(answered !== undefined && { answered }), ask: (question) => void asked.push(question) },
    };
    return { channel, asked };
  }

  it("refuses a 2026-07-28 client's confirm question while the store (which keeps its state) is down, and sends nothing", async () => {
    github.requests.splice(0);
    const { channel, asked } = askingChannel();
    store.down = true;
    const refused = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, {
      session: { conversation: 'c3' },
      channel,
    });
    store.down = false;
    expect(asked, 'no question whose answer could not be checked').to.have.length(0);
    expect(refused._meta).to.deep.include({ code: 'store_unavailable' });
    expect((refused.content[0] as { text: string }).text).to.contain(
      "needs the person's confirmation, and the shared store (MCP_STORE_URL) that keeps the question cannot be reached",
    );
    expect(github.requests.filter((r) => r.method === 'POST')).to.have.length(0);
  });

  it('refuses the retried accept while the store is down (its nonce cannot be taken), sending nothing; the store back, the same answer runs the call once', async () => {
    github.requests.splice(0);
    const session = { conversation: 'c4' };
    for (const read of [ATTACK.readIssue, ATTACK.readSecret]) await kernel.call(read.name, { ...read.arguments }, principal, { session });
    const first = askingChannel();
    const asking = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, { session, channel: first.channel });
    expect(asking._meta).to.deep.include({ code: 'confirmation_required' });
    expect(first.asked).to.have.length(1);
    const retry = askingChannel({ action: 'accept', state: first.asked[0]!.state });
    store.down = true;
    const refused = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, { session, channel: retry.channel });
    store.down = false;
    expect(refused._meta).to.deep.include({ code: 'store_unavailable' });
    expect(github.requests.filter((r) => r.method === 'POST')).to.have.length(0);
    const ran = await kernel.call(ATTACK.openPullRequest.name, { ...ATTACK.openPullRequest.arguments }, principal, { session, channel: retry.channel });
    expect(ran.isError, JSON.stringify(ran.content)).to.equal(undefined);
    expect(github.requests.filter((r) => r.method === 'POST')).to.have.length(1);
  });
});
