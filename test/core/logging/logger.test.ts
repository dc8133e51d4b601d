import { hostname } from 'node:os';
import { expect } from 'chai';
import { callLineLogger } from '../../../core/kernel/call-log.js';
import { createLogger } from '../../../core/logging/logger.js';
import { runCli } from '../../support/run-cli.js';

describe('createLogger: every line names the process that wrote it', () => {
  function capture(extra: Record<string, unknown> = {}): { written: string[]; options: Parameters<typeof createLogger>[0] } {
    const written: string[] = [];
    return { written, options: { level: 'info', secrets: [], destination: { write: (line: string) => written.push(line) }, ...extra } };
  }

  it("keeps pino's pid and hostname beside the name, on the root logger, a plugin's child and the call lines", () => {
    const { written, options } = capture();
    const root = createLogger(options);
    root.info('kernel started');
    root.child({ plugin: 'jira' }).warn('slow upstream');
    callLineLogger(root).info({ tool: 'jira_get' }, 'tool call');
    expect(written).to.have.length(3);
    for (const line of written) expect(JSON.parse(line)).to.include({ name: 'mcp-devtools', pid: process.pid, hostname: hostname() });
  });

  it("adds a worker's number to every line when the server runs under --workers", () => {
    const { written, options } = capture({ fields: { worker: 2 } });
    const root = createLogger(options);
    callLineLogger(root).info({ tool: 'jira_get' }, 'tool call');
    expect(JSON.parse(written[0]!)).to.include({ pid: process.pid, hostname: hostname(), worker: 2, tool: 'jira_get' });
  });

  it('names the process on the fatal line of a server that cannot start, too', async function () {
    this.timeout(20_000);
    const run = await runCli(['--transport', 'sse']);
    expect(run.code).to.equal(1);
    // The fatal JSON line comes first (stderr is no terminal here), then the same reason as one plain sentence.
    const [json, sentence] = run.stderr.trim().split('\n');
    expect(sentence).to.match(/^mcp-devtools: Setting MCP_TRANSPORT="sse" .* allowed values: stdio, http\.$/);
    const line = JSON.parse(json!) as Record<string, unknown>;
    expect(line).to.include({ level: 60, name: 'mcp-devtools', hostname: hostname() });
    expect(line.pid).to.be.a('number').and.to.be.above(0);
  });
});
