// docs/deployment.md's walkthrough of the image, run here as it describes it (the image's command and
// environment, outside a container: test/public/container-image.test.ts): each output it shows is the output
// of that run, with only what differs between runs (time, pid, host name, durations, paths, the port) set aside.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { endOfLifeNotice } from '../../server/cli/runtime-support.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { argsOf, dockerfileStages, envOf, execForm, pathHere, startCommand, type RunningCommand } from '../support/deployment-files.js';
import { freePort } from '../support/free-port.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { codeBlocks, readDoc, terminalSamples } from '../support/markdown.js';
import { BUNDLE_DIR } from '../support/paths.js';
import { connectHttp } from '../support/sdk-client.js';

const DOC = readDoc('docs/deployment.md');
const sample = (prefix: string): { command: string; output: string } => {
  const found = terminalSamples(DOC).filter((s) => s.command.startsWith(prefix));
  expect(found, `docs/deployment.md: one sample of \`${prefix}...\``).to.have.length(1);
  return found[0]!;
};

/** A line of output with what changes from run to run set aside: time, pid, host name, request ids, durations, paths, ports. */
export function normalized(line: string): unknown {
  const withPort = line.replace(/(127\.0\.0\.1|0\.0\.0\.0|localhost):\d+/g, '$1:PORT');
  if (!withPort.startsWith('{')) return withPort;
  const record = JSON.parse(withPort) as Record<string, unknown>;
  for (const key of ['time', 'pid', 'hostname', 'requestId', 'durationMs']) if (key in record) record[key] = key;
  if (typeof record.file === 'string') record.file = 'FILE';
  return record;
}

/** The lines a server writes on this Node.js only (the notice of an unsupported version), which the docs leave out. */
const runtimeOnly = (line: string): boolean => {
  const notice = endOfLifeNotice();
  return notice !== undefined && line.includes(notice);
};

const image = dockerfileStages().at(-1)!;
const workdir = argsOf(image, 'WORKDIR').at(-1)!;
const entrypoint = execForm(argsOf(image, 'ENTRYPOINT')[0]!).map((a) => pathHere(a, workdir));

describe('docs/deployment.md: the container image, as its walkthrough runs it', () => {
  it('without a tokens file: the command it shows refuses to start, with the output it shows', async () => {
    const { command, output } = sample('env -i ');
    // The one thing this machine may need different: a free port (the refusal comes after the port is taken).
    const port = String(await freePort());
    const ran = spawnSync('sh', ['-c', command.replace('MCP_HTTP_PORT=3000', `MCP_HTTP_PORT=${port}`)], {
      // `node dist/cli.js` of a clone: the tests' bundle is build/dist, the same build.
      cwd: dirname(BUNDLE_DIR),
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    expect(ran.status).to.equal(1);
    const lines = ran.stderr.split('\n').filter((l) => l !== '' && !runtimeOnly(l));
    expect(lines.map(normalized)).to.deep.equal(output.split('\n').map(normalized));
  });

  describe('with a tokens file: the log lines, /healthz and /metrics it shows', () => {
    const scraper = canary('metrics-');
    const caller = canary('mcp-caller-');
    let server: RunningCommand;
    let upstream: MockUpstream;
    let url: string;

    before(async () => {
      upstream = await MockUpstream.start();
      const dir = mkdtempSync(join(tmpdir(), 'deployment-doc-'));
      writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token: caller, subject: 'alice@acme.example' }]));
      const port = await freePort();
      server = await startCommand(
        [...entrypoint, ...execForm(argsOf(image, 'CMD')[0]!)],
        {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          ...envOf(image),
          MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'),
          MCP_HTTP_PORT: String(port),
          MCP_METRICS_TOKEN: scraper,
          GITHUB_API_URL: upstream.url,
          GITHUB_TOKEN: canary('ghp_'),
        },
        dir,
      );
      url = `http://127.0.0.1:${port}`;
      // What the walkthrough does: two calls of github_list_workflow_runs, then a request with a wrong token.
      upstream.on('GET', '/repos/acme/api/actions/runs', {
        body: { total_count: 1, workflow_runs: [{ id: 42, name: 'CI', head_branch: 'main', status: 'completed', conclusion: 'success' }] },
      });
      const client = await connectHttp(`${url}/mcp`, caller);
      try {
        for (let i = 0; i < 2; i++)
          await client.callTool({ name: 'github_list_workflow_runs', arguments: { owner: 'acme', repo: 'api', branch: 'main', perPage: 5 } });
      } finally {
        await client.close();
      }
      await fetch(`${url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${canary('wrong-')}`, 'content-type': 'application/json' }, body: '{}' });
    });
    after(async () => {
      for (const line of server?.stderr ?? []) leakAudit.transcript('deployment doc server stderr', line);
      await server?.stop();
      await upstream?.close();
    });

    it('logs the lines it shows', async () => {
      if (process.env.PRINT_DOC_SAMPLES) console.log(server.stderr.join('\n'));
      const shown = codeBlocks(DOC).find((b) => b.code.includes('"msg":"bearer tokens loaded"'))!;
      for (const deadline = Date.now() + 5000; !server.stderr.some((l) => l.includes('HTTP authentication failed')) && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 20));
      const start = server.stderr.findIndex((l) => l.includes('"msg":"bearer tokens loaded"'));
      const lines = server.stderr.slice(start).filter((l) => !runtimeOnly(l));
      expect(lines.map(normalized)).to.deep.equal(shown.code.split('\n').map(normalized));
    });

    it('answers /healthz as shown', async () => {
      const { output } = sample('curl -s http://127.0.0.1:3000/healthz');
      expect(await (await fetch(`${url}/healthz`)).text()).to.equal(output);
    });

    it('answers /metrics with the lines shown to the metrics token, and refuses a scrape without it as shown', async () => {
      const scrape = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${scraper}` } })).text();
      if (process.env.PRINT_DOC_SAMPLES) console.log(scrape);
      // Durations differ from run to run: a histogram's buckets and sum are compared by name and labels.
      const key = (line: string): string => (/_(bucket|sum)\{/.test(line) ? line.replace(/ [\d.e+-]+$/, '') : line);
      const real = new Set(scrape.split('\n').map(key));
      const shown = sample('curl -s -H "Authorization: Bearer $MCP_METRICS_TOKEN"').output.split('\n');
      expect(shown.length).to.be.greaterThan(5);
      expect(shown.filter((l) => !real.has(key(l)))).to.deep.equal([]);
      const { output } = sample('curl -s http://127.0.0.1:3000/metrics');
      expect(await (await fetch(`${url}/metrics`)).text()).to.equal(output);
    });
  });
});
