// A plugin installed in a folder of its own, as from a registry: it resolves its own copy of mcp-devtools
// and of tsyringe, not the server's. The server must still construct it, inject its services and keep the
// code of the ToolErrors it throws.
import { copyFileSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { resolve as resolveSpecifier } from 'import-meta-resolve';
import { BUNDLE_DIR, REPO_ROOT } from '../support/paths.js';
import { connectStdio, type StdioSession } from '../support/sdk-client.js';

const PLUGIN_JS = fileURLToPath(new URL('../fixtures/plugins/acme-status-plugin.js', import.meta.url));

/** folder/node_modules: a copy of mcp-devtools (package.json and dist) and of tsyringe; links to the rest. */
function installSeparately(folder: string): void {
  const modules = join(folder, 'node_modules');
  const own = ['mcp-devtools', 'tsyringe'];
  mkdirSync(join(modules, 'mcp-devtools'), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'package.json'), join(modules, 'mcp-devtools', 'package.json'));
  cpSync(BUNDLE_DIR, join(modules, 'mcp-devtools', 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'node_modules', 'tsyringe'), join(modules, 'tsyringe'), { recursive: true });
  const rootModules = join(REPO_ROOT, 'node_modules');
  for (const entry of readdirSync(rootModules)) {
    if (entry.startsWith('.') || own.includes(entry)) continue;
    if (!entry.startsWith('@')) {
      symlinkSync(join(rootModules, entry), join(modules, entry));
      continue;
    }
    mkdirSync(join(modules, entry), { recursive: true });
    for (const scoped of readdirSync(join(rootModules, entry))) symlinkSync(join(rootModules, entry, scoped), join(modules, entry, scoped));
  }
}

describe('public API: a plugin with its own copy of mcp-devtools, loaded by path into the server', () => {
  let folder: string;
  let session: StdioSession;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'acme-plugin-'));
    installSeparately(folder);
    mkdirSync(join(folder, 'plugin'));
    copyFileSync(PLUGIN_JS, join(folder, 'plugin', 'index.js'));
    writeFileSync(join(folder, 'plugin', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(folder, 'mcp-devtools.config.json'), JSON.stringify({ plugins: ['./plugin/index.js'] }));
    session = await connectStdio({ cwd: folder, env: { ACME_REGION: 'ap-south', MCP_STRUCTURED_OUTPUT: 'true' } });
  });
  after(async () => session?.close());

  it("resolves copies of its own, not the server's", () => {
    const from = pathToFileURL(join(folder, 'plugin', 'index.js')).href;
    expect(fileURLToPath(resolveSpecifier('mcp-devtools/plugin', from))).to.equal(join(folder, 'node_modules', 'mcp-devtools', 'dist', 'plugin.js'));
    expect(lstatSync(join(folder, 'node_modules', 'tsyringe')).isSymbolicLink()).to.equal(false);
  });

  it('is constructed with its injected settings and logger, and its tools are listed with their schemas', async () => {
    const { tools } = await session.client.listTools();
    const region = tools.find((t) => t.name === 'acme_region');
    expect(region?.outputSchema?.required).to.deep.equal(['data']);
    const result = await session.client.callTool({ name: 'acme_region', arguments: {} });
    expect(result.structuredContent).to.deep.equal({ data: { region: 'ap-south' } });
    expect(result.content).to.deep.equal([{ type: 'text', text: 'region: ap-south' }]);
    expect(await session.waitForStderr('acme region asked')).to.contain('"plugin":"acme-status"');
  });

  it('keeps the code and status of a ToolError made by its copy', async () => {
    const result = await session.client.callTool({ name: 'acme_outage', arguments: {} });
    expect(result.isError).to.equal(true);
    expect(result.content).to.deep.equal([
      {
        type: 'text',
        text: 'Error: Acme answered 503 Service Unavailable for GET /status. The vendor API failed; try again later.\nCode: upstream_server_error\nHTTP Status: 503',
      },
    ]);
  });
});
