import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { CLI_PATH } from '../support/paths.js';
import { RawStdioServer } from '../support/raw-stdio.js';
import { isolatedEnv } from '../support/sdk-client.js';

const cwd = (): string => mkdtempSync(join(tmpdir(), 'mcp-devtools-pipes-'));

/** Runs the CLI with its stdout closed by the reader before the first byte (`mcp-devtools config | head -0`). */
function runWithStdoutClosed(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const dir = cwd();
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: isolatedEnv({}, dir), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('a reader that goes away (closed stdout, `| head`)', function () {
  this.timeout(30_000);

  for (const args of [['config'], ['config', '--json'], ['--help']]) {
    it(`ends \`mcp-devtools ${args.join(' ')}\` quietly with exit code 0`, async () => {
      const { code, stderr } = await runWithStdoutClosed(args);
      expect(stderr).not.to.match(/EPIPE|Error|at /);
      expect(code).to.equal(0);
    });
  }

  it('shuts the stdio server down quietly with exit code 0 when the client closes its end of stdout', async () => {
    const server = await RawStdioServer.start({}, cwd());
    server.closeStdout();
    // The server notices when it next writes: the answer to this request.
    server.send({ jsonrpc: '2.0', id: 'after-close', method: 'tools/list' });
    expect(await server.exitCode()).to.equal(0);
    expect(server.stderr.filter((line) => !line.startsWith('{'))).to.deep.equal([]);
    expect(server.stderr.some((line) => line.includes('"shutting down"'))).to.equal(true);
  });
});
