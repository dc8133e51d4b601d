import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { LOCAL_PRINCIPAL, type Principal } from '../../../core/identity/principal.js';
import { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { githubFixture, githubLink, structuredFixtureConfig } from './structured-fixtures.js';

const runsArgs = { owner: 'octo-org', repo: 'octo-repo' };
const TOKEN = 'fixture-secret-token-5d41402a';

/** A page of `count` workflow runs, built from GitHub's own example run. */
function pageOf(count: number): Record<string, unknown> {
  const page = githubFixture('workflow-run-paginated');
  const run = (page.workflow_runs as Record<string, unknown>[])[0]!;
  return {
    total_count: 61,
    workflow_runs: Array.from({ length: count }, (_, i) => ({ ...run, id: 30433642 + i, display_title: `Ünïcödé build ${i} — 日本語 🚀` })),
  };
}

/** Reads an artifact back through artifact_read, following nextOffset until eof. */
export async function readArtifact(kernel: TestKernel, artifactId: string, principal: Principal = LOCAL_PRINCIPAL): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = 0, eof = false; !eof;) {
    const result = await kernel.call('artifact_read', { artifactId, offset }, principal);
    expect(result.isError, textOf(result)).to.equal(undefined);
    const chunk = JSON.parse(textOf(result)) as { nextOffset: number; eof: boolean; data: string };
    parts.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
    eof = chunk.eof;
  }
  return Buffer.concat(parts);
}

function incompleteOf(result: CallToolResult): { reason: string; bytes: number; limitBytes: number; artifactId: string | null } {
  return (result.structuredContent as Record<string, unknown>).incomplete as never;
}

describe('structured output: the size bound and oversized values', () => {
  let mock: MockUpstream;
  let small: TestKernel;

  before(async () => {
    mock = await MockUpstream.start();
    small = await startTestKernel({
      configFile: structuredFixtureConfig(),
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '16384' },
    });
  });
  after(async () => {
    await small.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  it('never clips: data null, nextPage kept, incomplete with the UTF-8 size, the bound and an artifact of the whole value', async () => {
    const page = pageOf(12);
    mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: page, headers: { link: githubLink(mock.url, 1, 3) } });
    const result = await small.call('fixture_list_runs', runsArgs);
    const full = JSON.stringify({ data: page, nextPage: 2 });
    expect(Buffer.byteLength(full)).to.be.greaterThan(full.length); // multi-byte text: bytes, not characters
    expect(result.structuredContent).to.deep.equal({
      data: null,
      nextPage: 2,
      incomplete: { reason: 'size', bytes: Buffer.byteLength(full), limitBytes: 16384, artifactId: incompleteOf(result).artifactId },
    });
    expect(incompleteOf(result).artifactId).to.match(/^[0-9a-f]{32}$/);
    const saved = await readArtifact(small, incompleteOf(result).artifactId!);
    expect(saved.equals(Buffer.from(full, 'utf8'))).to.equal(true);
    const chunk = JSON.parse(textOf(await small.call('artifact_read', { artifactId: incompleteOf(result).artifactId }))) as { mimeType: string };
    expect(chunk.mimeType).to.equal('application/json');
  });

  it('keeps a value of exactly the bound inline and spills one byte more', async () => {
    // {"data":"xx...x"} is 11 bytes of envelope around the string.
    mock.on('GET', '/exact', { headers: { 'content-type': 'application/json' }, body: JSON.stringify('x'.repeat(16384 - 11)) });
    mock.on('GET', '/over', { headers: { 'content-type': 'application/json' }, body: JSON.stringify('x'.repeat(16384 - 10)) });
    const exact = await small.call('fixture_atlassian_get', { path: '/exact' });
    expect(exact.structuredContent).to.deep.equal({ data: 'x'.repeat(16384 - 11) });
    const over = await small.call('fixture_atlassian_get', { path: '/over' });
    expect((over.structuredContent as Record<string, unknown>).data).to.equal(null);
    expect(incompleteOf(over)).to.include({ reason: 'size', bytes: 16385, limitBytes: 16384 });
  });

  it('bounds the structured value independently of the text: complete text, incomplete structured', async () => {
    const page = pageOf(300);
    mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: page });
    const result = await small.call('fixture_list_runs', { ...runsArgs, jq: 'workflow_runs[*].{id: id, title: display_title}', outputFormat: 'json' });
    const text = textOf(result);
    expect(text.length).to.be.lessThan(40_000);
    expect(text).not.to.contain('Response Truncated');
    expect(incompleteOf(result).reason).to.equal('size');
    const saved = JSON.parse((await readArtifact(small, incompleteOf(result).artifactId!)).toString('utf8')) as unknown;
    expect(JSON.parse(text)).to.deep.equal(saved);
  });

  it('and the reverse: truncated text, complete structured value, with no filesystem path in it', async () => {
    const raw = mkdtempSync(join(tmpdir(), 'mcp-devtools-raw-'));
    const large = await startTestKernel({
      configFile: structuredFixtureConfig(),
      env: { FIXTURE_BASE_URL: mock.url, FIXTURE_TOKEN: TOKEN, MCP_STRUCTURED_OUTPUT: 'true', MCP_STRUCTURED_MAX_BYTES: '1048576', MCP_RAW_RESPONSE_DIR: raw },
    });
    try {
      const page = pageOf(30);
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: page });
      const result = await large.call('fixture_list_runs', runsArgs);
      expect(textOf(result)).to.contain('## Response Truncated');
      expect(textOf(result)).to.contain(raw);
      expect(result.structuredContent).to.deep.equal({ data: page, nextPage: null });
      expect(JSON.stringify(result.structuredContent)).not.to.contain(raw);
    } finally {
      await large.close();
    }
  });

  it('redacts a configured secret the upstream echoed, in structuredContent and in the artifact', async () => {
    mock.on('GET', '/echo', { body: { note: `token=${TOKEN}`, [TOKEN]: 'as a key' } });
    const inline = await small.call('fixture_atlassian_get', { path: '/echo' });
    expect(inline.structuredContent).to.deep.equal({ data: { note: 'token=[REDACTED]', '[REDACTED]': 'as a key' } });
    mock.on('GET', '/echo-big', { body: { note: `token=${TOKEN}`, padding: 'p'.repeat(20_000) } });
    const spilled = await small.call('fixture_atlassian_get', { path: '/echo-big' });
    const saved = (await readArtifact(small, incompleteOf(spilled).artifactId!)).toString('utf8');
    expect(saved).to.contain('token=[REDACTED]');
    expect(saved).not.to.contain(TOKEN);
  });

  it('still answers, incomplete with artifactId null, when the artifact cannot be saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-store-'));
    const file = join(dir, 'store.db');
    const failing = await startTestKernel({
      configFile: structuredFixtureConfig(),
      env: {
        FIXTURE_BASE_URL: mock.url,
        FIXTURE_TOKEN: TOKEN,
        MCP_STRUCTURED_OUTPUT: 'true',
        MCP_STRUCTURED_MAX_BYTES: '16384',
        MCP_STORE_URL: `sqlite://${file}`,
      },
    });
    try {
      // The real SQLite store refuses artifact writes from now on, as a full disk or a read-only volume would.
      await exec(
        file,
        "CREATE TRIGGER refuse_artifacts BEFORE INSERT ON keyv WHEN NEW.key LIKE '%artifact-%' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
      );
      const page = pageOf(12);
      mock.on('GET', '/repos/:owner/:repo/actions/runs', { body: page, headers: { link: githubLink(mock.url, 1, 3) } });
      const result = await failing.call('fixture_list_runs', runsArgs);
      expect(result.isError).to.equal(undefined);
      expect(result.structuredContent).to.deep.equal({
        data: null,
        nextPage: 2,
        incomplete: { reason: 'size', bytes: Buffer.byteLength(JSON.stringify({ data: page, nextPage: 2 })), limitBytes: 16384, artifactId: null },
      });
      expect(failing.logs.some((l) => l.includes('could not save an oversized structured value'))).to.equal(true);
    } finally {
      await failing.close();
    }
  });
});

function exec(file: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (error) => {
      if (error) return reject(error);
      db.exec(sql, (e) => db.close(() => (e ? reject(e) : resolve())));
    });
  });
}
