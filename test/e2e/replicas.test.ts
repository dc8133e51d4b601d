import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { MockUpstream } from '../../core/testing/mock-upstream.js';
import { FIXTURES } from '../support/paths.js';
import { sharedRedisUrl, uniqueNamespace } from '../support/redis.js';
import { startReplicas, stopReplicas, type Replica } from '../support/replicas.js';
import { startRoundRobinProxy } from '../support/round-robin-proxy.js';
import { sqliteFile } from '../support/store-backends.js';
import { sleep } from '../support/async.js';

const workflowRun = JSON.parse(readFileSync(join(FIXTURES, 'github/workflow-run.json'), 'utf8')) as { id: number; name: string };

interface Chunk {
  data: string;
  nextOffset: number;
  eof: boolean;
  bytes: number;
  pid: number;
}

/** Reads a whole artifact through one replica, in the pieces the tool allows. */
async function readArtifact(replica: Replica, artifactId: string): Promise<{ content: Buffer; pids: Set<number> }> {
  const pieces: Buffer[] = [];
  const pids = new Set<number>();
  for (let offset = 0, eof = false; !eof; ) {
    const chunk = await replica.callJson<Chunk>('store_probe_read_artifact', { artifactId, offset, maxBytes: 24_576 });
    pieces.push(Buffer.from(chunk.data, 'base64'));
    pids.add(chunk.pid);
    ({ nextOffset: offset, eof } = chunk);
  }
  return { content: Buffer.concat(pieces), pids };
}

const STORES = [
  { kind: 'redis', url: sharedRedisUrl },
  // Several processes on one host share a SQLite file just as replicas share Redis.
  { kind: 'sqlite', url: async () => `sqlite://${sqliteFile()}` },
];

for (const store of STORES) {
  describe(`Two HTTP replicas sharing one ${store.kind} store`, function () {
    this.timeout(120_000);
    let mock: MockUpstream;
    let replicas: Replica[];
    let a: Replica;
    let b: Replica;

    before(async () => {
      mock = await MockUpstream.start();
      mock.on('GET', '/repos/octo/app/actions/runs/:id', { body: workflowRun });
      replicas = await startReplicas(2, {
        storeUrl: await store.url(),
        namespace: uniqueNamespace('replicas'),
        env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: 'replica-token' },
      });
      [a, b] = replicas as [Replica, Replica];
    });
    after(async () => {
      await stopReplicas(replicas ?? []);
      await mock?.close();
    });

    it('are two processes that both list the same tools and answer a vendor call', async () => {
      const pids = new Set([a.server.process.pid, b.server.process.pid]);
      expect(pids.size).to.equal(2);
      const [toolsA, toolsB] = await Promise.all([a.client.listTools(), b.client.listTools()]);
      const names = toolsA.tools.map((t) => t.name).sort();
      expect(names).to.include.members(['fixture_get', 'store_probe_get', 'store_probe_put']);
      expect(toolsB.tools.map((t) => t.name).sort()).to.deep.equal(names);
      for (const replica of replicas) {
        const run = await replica.callJson<{ id: number; name: string }>('fixture_get', { path: `/repos/octo/app/actions/runs/${workflowRun.id}` });
        expect(run).to.include({ id: workflowRun.id, name: workflowRun.name });
      }
      expect(mock.requests.map((r) => r.headers.authorization)).to.deep.equal(['Bearer replica-token', 'Bearer replica-token']);
    });

    it('show each other what they write to the store', async () => {
      const put = await a.callJson<{ pid: number }>('store_probe_put', { key: 'from-a', value: 'written by A', ttlMs: 600_000 });
      const got = await b.callJson<{ value: string | null; pid: number }>('store_probe_get', { key: 'from-a' });
      expect(got.value).to.equal('written by A');
      expect(got.pid).not.to.equal(put.pid);
      await b.callJson('store_probe_put', { key: 'from-b', value: 'written by B', ttlMs: 600_000 });
      expect((await a.callJson<{ value: string | null }>('store_probe_get', { key: 'from-b' })).value).to.equal('written by B');
    });

    it('read to the last byte through B an artifact saved through A', async () => {
      const content = randomBytes(150 * 1024).toString('base64');
      const saved = await a.callJson<{ artifactId: string; bytes: number; pid: number }>('store_probe_save_artifact', { content });
      expect(saved.bytes).to.equal(content.length);
      const read = await readArtifact(b, saved.artifactId);
      expect(read.content.toString('utf8')).to.equal(content);
      expect([...read.pids]).to.deep.equal([b.server.process.pid]);
      expect(read.pids.has(saved.pid)).to.equal(false);
    });

    it('serve one client session behind a load balancer without sticky sessions', async () => {
      const proxy = await startRoundRobinProxy(() => replicas.map((r) => r.url));
      const client = new Client({ name: 'behind-the-balancer', version: '1.0.0' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
        expect((await client.listTools()).tools.map((t) => t.name)).to.include('store_probe_get');
        const answered = new Set<number>();
        for (let i = 0; i < 4; i++) {
          const result = await client.callTool({ name: 'store_probe_get', arguments: { key: 'from-a', outputFormat: 'json' } });
          const body = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { value: string; pid: number };
          expect(body.value).to.equal('written by A');
          answered.add(body.pid);
        }
        expect(answered).to.deep.equal(new Set([a.server.process.pid, b.server.process.pid]));
        expect(new Set(proxy.routed).size).to.equal(2);
      } finally {
        await client.close();
        await proxy.close();
      }
    });

    it('lose nothing within its TTL when both restart, and forget what expired', async () => {
      const content = randomBytes(70 * 1024).toString('base64');
      const saved = await a.callJson<{ artifactId: string }>('store_probe_save_artifact', { content });
      await b.callJson('store_probe_put', { key: 'short-lived', value: 'soon gone', ttlMs: 300 });
      const before = [a.server.process.pid, b.server.process.pid];
      await Promise.all(replicas.map((r) => r.restart()));
      expect([a.server.process.pid, b.server.process.pid]).not.to.include.members(before);
      await sleep(400);
      expect((await b.callJson<{ value: string | null }>('store_probe_get', { key: 'from-a' })).value).to.equal('written by A');
      expect((await a.callJson<{ value: string | null }>('store_probe_get', { key: 'from-b' })).value).to.equal('written by B');
      expect((await a.callJson<{ value: string | null }>('store_probe_get', { key: 'short-lived' })).value).to.equal(null);
      expect((await readArtifact(b, saved.artifactId)).content.toString('utf8')).to.equal(content);
    });
  });
}
