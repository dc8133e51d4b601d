// The MCP Inspector command of the repository's README, run as written from the repository's root (`npx` runs
// the Inspector this package installed), against the built server: it lists what `mcp-devtools tools` lists.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const inspector = resolve(here, '../node_modules/.bin/mcp-inspector');
const NPX = 'npx @modelcontextprotocol/inspector ';

/** Shell words without expansions: the README's commands use plain words and quotes only. */
function words(line) {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

test("the README's Inspector command lists the tools the server serves", async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/`(npx @modelcontextprotocol\/inspector --cli [^`]+)`/g)].map((m) => m[1]);
  const list = commands.find((c) => c.includes('--method tools/list'));
  assert.ok(list, 'the README shows `npx @modelcontextprotocol/inspector --cli ... --method tools/list`');
  // Nothing from the developer's shell: no credentials, no settings; a HOME of its own.
  const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'inspector-home-')) };
  const { stdout } = await run(inspector, words(list.slice(NPX.length)), { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  // The same server settings the command gives (`--toolsets default`: without credentials the default set is empty).
  const serverArgs = words(list.slice(NPX.length)).slice(3, -2);
  const listed = await run(process.execPath, [join(root, 'dist/cli.js'), 'tools', ...serverArgs, '--json'], { cwd: root, env });
  const served = JSON.parse(listed.stdout).map((t) => t.name);
  assert.ok(served.includes('github_list_workflow_runs'));
  assert.deepEqual(
    JSON.parse(stdout).tools.map((t) => t.name),
    served,
  );
});
