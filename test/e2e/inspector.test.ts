import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { CLI_PATH, REPO_ROOT } from '../support/paths.js';
import { isolatedEnv } from '../support/sdk-client.js';

const run = promisify(execFile);

describe('MCP Inspector (inspector-cli) against dist/cli.js, as the README shows', () => {
  it('lists the tools of every built-in vendor plugin', async () => {
    // inspector-cli looks for ../package.json relative to its working directory: run it from docs/, as documented.
    const bin = resolve(REPO_ROOT, 'node_modules/.bin/mcp-inspector-cli');
    const { stdout } = await run(bin, ['--cli', 'node', CLI_PATH, '--method', 'tools/list'], { cwd: resolve(REPO_ROOT, 'docs'), env: isolatedEnv() });
    const { tools } = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { tools: Array<{ name: string }> };
    const vendors = new Set(tools.map((t) => t.name.split('_')[0]));
    for (const prefix of ['github', 'circleci', 'jira', 'conf', 'bb', 'artifact']) expect([...vendors], prefix).to.include(prefix);
  });
});
