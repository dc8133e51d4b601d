// The container image, checked where there is no Docker daemon: the Dockerfile's shape (stages, production
// dependencies, non-root user, health check), then its entrypoint command and environment run as they are,
// outside a container, against the built CLI. The image's /app is this repository's root (dist/ is copied
// there), so /app/dist/cli.js runs as dist/cli.js.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { tokensFileYaml } from '../support/auth-fixture.js';
import { canary } from '../support/canaries.js';
import { EVERY_VENDOR_CREDENTIALS } from '../support/every-vendor-credentials.js';
import { argsOf, dockerfileStages, envOf, execForm, pathHere, runToEnd, startCommand, type RunningCommand, type Stage } from '../support/deployment-files.js';
import { leakAudit } from '../support/leak-audit/leak-audit.js';
import { CLI_PATH, REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/free-port.js';
import { connectHttp } from '../support/sdk-client.js';

const stages = dockerfileStages();
const image = stages.at(-1)!;
const workdir = argsOf(image, 'WORKDIR').at(-1)!;

/** The image's command line, its paths under WORKDIR mapped to this repository. */
function imageCommand(): string[] {
  const argv = [...execForm(argsOf(image, 'ENTRYPOINT')[0]!), ...execForm(argsOf(image, 'CMD')[0]!)];
  return argv.map((a) => pathHere(a, workdir));
}

/** The image's environment, with what a container would have besides: PATH, a HOME. */
function imageEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'image-home-'));
  return { PATH: process.env.PATH ?? '', HOME: home, ...envOf(image), ...overrides };
}

const stageNamed = (name: string): Stage => stages.find((s) => s.name === name)!;

describe('the container image (Dockerfile)', () => {
  it('builds in stages, and the image takes only production dependencies and the bundle from them', () => {
    expect(stages.length).to.be.at.least(3);
    const copies = argsOf(image, 'COPY');
    const modules = copies.find((c) => c.endsWith('./node_modules'))!;
    const depsStage = stageNamed(/--from=(\S+)/.exec(modules)![1]!);
    expect(argsOf(depsStage, 'RUN').join(' ')).to.match(/npm ci --omit=dev/);
    const dist = copies.find((c) => c.endsWith('./dist'))!;
    expect(argsOf(stageNamed(/--from=(\S+)/.exec(dist)![1]!), 'RUN').join(' ')).to.contain('npm run build');
    // Nothing of the sources, tests or dev tools is copied into the image itself.
    expect(copies.filter((c) => !c.startsWith('--from=')).map((c) => c.split(' ').slice(0, -1).join(' '))).to.deep.equal(['package.json LICENSE']);
    expect(argsOf(image, 'RUN')).to.deep.equal([]);
  });

  it('copies into the build stage what the build reads: its configuration, the sources and every local module the configuration imports', () => {
    const dist = argsOf(image, 'COPY').find((c) => c.endsWith('./dist'))!;
    const build = stageNamed(/--from=(\S+)/.exec(dist)![1]!);
    const copied = argsOf(build, 'COPY').flatMap((c) => c.split(' ').slice(0, -1));
    const config = readFileSync(join(REPO_ROOT, 'rollup.config.mjs'), 'utf8');
    const local = [...config.matchAll(/^import .* from '\.\/([^']+)';$/gm)].map((m) => m[1]!);
    for (const path of ['tsconfig.json', 'rollup.config.mjs', 'core', 'plugins', 'server', ...local])
      expect(
        copied.some((c) => path === c || path.startsWith(`${c}/`)),
        path,
      ).to.equal(true);
  });

  it('copies only files the repository has and the build context keeps', () => {
    const sources = stages
      .flatMap((s) => argsOf(s, 'COPY'))
      .filter((c) => !c.startsWith('--from='))
      .flatMap((c) => c.split(' ').slice(0, -1));
    const kept = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .map((l) => l.slice(1).replace(/\/$/, ''));
    for (const source of sources) {
      expect(existsSync(join(REPO_ROOT, source)), source).to.equal(true);
      expect(kept, `${source} is not in the build context`).to.include(source);
    }
  });

  it('runs as a user that is not root', () => {
    const user = argsOf(image, 'USER').at(-1);
    expect(user)
      .to.be.a('string')
      .and.not.to.match(/^(root|0)(:|$)/);
  });

  it('serves HTTP on all interfaces, requires authentication, and exposes the port it serves', () => {
    const env = envOf(image);
    expect(env).to.deep.include({ MCP_TRANSPORT: 'http', MCP_HTTP_HOST: '0.0.0.0', MCP_AUTH_MODE: 'tokens' });
    expect(argsOf(image, 'EXPOSE')).to.deep.equal([env.MCP_HTTP_PORT]);
    expect(argsOf(image, 'HEALTHCHECK')[0]).to.contain('/healthz');
  });

  it('refuses to start without the tokens file it requires, naming it', async () => {
    let message = '';
    await startCommand(imageCommand(), imageEnv(), REPO_ROOT).then(
      (s) => s.stop(),
      (e: Error) => (message = e.message),
    );
    expect(message).to.contain(`MCP_AUTH_TOKENS_FILE=${envOf(image).MCP_AUTH_TOKENS_FILE} cannot be read`);
  });

  describe('started as the image starts, with a tokens file where the image expects one', () => {
    const token = canary('mcp-caller-');
    let server: RunningCommand;
    let env: Record<string, string>;
    const healthcheck = (): string[] => ['node', ...execForm(argsOf(image, 'HEALTHCHECK')[0]!.replace(/^.*?CMD /, '')).slice(1)];

    before(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'image-run-'));
      writeFileSync(join(dir, 'tokens.yaml'), tokensFileYaml([{ token, subject: 'alice' }]));
      // A mounted file and the port: the only two things this machine needs different from a container.
      // The vendors' credentials too, as a deployment gives them: the default set serves the vendors that have them.
      env = imageEnv({ MCP_AUTH_TOKENS_FILE: join(dir, 'tokens.yaml'), MCP_HTTP_PORT: String(await freePort()), ...EVERY_VENDOR_CREDENTIALS });
      server = await startCommand(imageCommand(), env, REPO_ROOT);
    });
    after(async () => {
      for (const line of server?.stderr ?? []) leakAudit.transcript('image server stderr', line);
      await server?.stop();
    });

    it('listens on 0.0.0.0 at the configured port', () => {
      expect(server.url).to.equal(`http://0.0.0.0:${env.MCP_HTTP_PORT}/mcp`);
    });

    it('passes its HEALTHCHECK', async () => {
      expect(await runToEnd(healthcheck(), env)).to.equal(0);
    });

    it('answers /mcp only with a bearer token', async () => {
      const url = `http://127.0.0.1:${env.MCP_HTTP_PORT}/mcp`;
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).to.equal(401);
      const client = await connectHttp(url, token);
      try {
        // The image serves the default toolsets: what `tools` lists in the same environment, no REST passthrough.
        const listed = JSON.parse(execFileSync(process.execPath, [CLI_PATH, 'tools', '--json'], { env, encoding: 'utf8' })) as { name: string }[];
        const served = (await client.listTools()).tools.map((t) => t.name);
        expect(served.sort()).to.deep.equal(listed.map((t) => t.name).sort());
        expect(served).to.include.members(['github_list_workflow_runs', 'jira_search', 'circleci_pipeline_status']);
        expect(served).not.to.include('jira_get');
      } finally {
        await client.close();
      }
    });

    it('fails its HEALTHCHECK once the server is gone', async () => {
      await server.stop();
      expect(await runToEnd(healthcheck(), env)).to.equal(1);
    });
  });
});
