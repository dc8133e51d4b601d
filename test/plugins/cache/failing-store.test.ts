import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Kernel } from '../../../core/kernel/kernel.js';
import { createArtifactStore } from '../../../plugins/artifacts/artifact-service.js';
import { createLogger } from '../../../core/logging/logger.js';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { openStore } from '../../../core/store/open-store.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { resolveConfig } from '../../../server/bootstrap/resolve-config.js';
import { pipelines, tokenPagedReply } from '../../fixtures/circleci/circleci-api.js';
import { StoreWithOutage } from '../../support/store-with-outage.js';
import { textOf } from '../../support/test-kernel.js';

// A list that stays cacheable (a project's schedules): pipeline lists are status paths.
const LIST = '/project/gh/CircleCI-Public/api-preview-docs/schedule';

describe('HTTP cache when its store fails', () => {
  let mock: MockUpstream;
  let kernel: Kernel;
  let store: StoreWithOutage;
  const logs: string[] = [];

  before(async () => {
    mock = await MockUpstream.start();
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-devtools-test-'));
    writeFileSync(join(cwd, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['circleci'] }));
    const env = {
      CIRCLECI_BASE_URL: mock.url,
      CIRCLECI_TOKEN: 'circle-outageToken0123',
      MCP_RAW_RESPONSE_DIR: join(cwd, 'raw'),
      MCP_TOOLSETS: 'circleci.rest',
    };
    // The test kit opens its own store; this kernel is started by hand to run on the store with an outage switch.
    const { plugins, settings } = await resolveConfig({ cwd, home: cwd, env });
    store = new StoreWithOutage(await openStore('memory://'));
    const logger = createLogger({ level: 'info', secrets: settings.secretValues(), destination: { write: (line: string) => logs.push(line) } });
    kernel = await Kernel.start({ plugins, settings, logger, store, artifactStore: createArtifactStore });
  });
  after(async () => {
    await kernel.close();
    await mock.close();
  });

  const read = async (): Promise<{ data: unknown; cache: { hit: boolean } }> => {
    const result = await kernel.call('circleci_get', { path: LIST, jq: 'items[*].number', outputFormat: 'json' }, LOCAL_PRINCIPAL);
    expect(result.isError, textOf(result)).to.equal(undefined);
    return JSON.parse(textOf(result)) as { data: unknown; cache: { hit: boolean } };
  };

  it('bypasses the cache while the store throws, logs it, and recovers when the store is back', async () => {
    mock.on('GET', `/api/v2${LIST}`, (req) => tokenPagedReply(req, pipelines(2)));
    store.down = true;
    expect(await read()).to.deep.include({ data: [27, 26] });
    expect((await read()).cache.hit).to.equal(false);
    expect(mock.requests).to.have.length(2);
    expect(logs.some((line) => line.includes('HTTP cache store failed; the call bypasses the cache') && line.includes('Connection is closed.'))).to.equal(true);
    store.down = false;
    await read();
    expect((await read()).cache.hit).to.equal(true);
    expect(mock.requests).to.have.length(3);
  });

  it('still answers when the store fails between the read and the write', async () => {
    mock.reset();
    mock.on('GET', `/api/v2${LIST}`, (req) => {
      store.down = true; // the store goes away while the upstream request is in flight
      return tokenPagedReply(req, pipelines(3));
    });
    const result = await kernel.call('circleci_get', { path: LIST, jq: 'items[*].number', outputFormat: 'json', fresh: true }, LOCAL_PRINCIPAL);
    store.down = false;
    expect(result.isError, textOf(result)).to.equal(undefined);
    expect(JSON.parse(textOf(result))).to.deep.include({ data: [28, 27, 26] });
  });
});
