import { expect } from 'chai';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { textOf } from '../../support/test-kernel.js';
import { useVendorKernel } from '../../support/vendor-kernel.js';

const RUNS = '/repos/octo-org/octo-repo/actions/runs';
const LIST = "tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo' })";

/** The first line of an error result: the one sentence that names the limit. */
const sentence = (result: CallToolResult): string =>
  textOf(result)
    .split('\n')[0]!
    .replace(/^Error: /, '');

describe('code mode: bad programs end with one sentence naming the limit', function () {
  this.timeout(60_000);
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({
      GITHUB_API_URL: url,
      GITHUB_TOKEN: 'code-mode-token',
      MCP_CODE_MODE: 'true',
      MCP_CODE_CPU_MS: '300',
      MCP_CODE_TIMEOUT_MS: '1500',
      MCP_CODE_MEMORY_MB: '16',
      MCP_CODE_MAX_CALLS: '25',
    }),
  });
  const run = (code: string): Promise<CallToolResult> => t.kernel.call('execute', { code });

  it('stops an endless loop at its CPU limit', async () => {
    const result = await run('let n = 0;\nwhile (true) n++;');
    expect(result.isError).to.equal(true);
    expect(sentence(result)).to.equal('The program computed for more than 300 ms of CPU time, its limit (MCP_CODE_CPU_MS), and was stopped: an endless loop?');
    expect(textOf(result)).to.include('Code: program_limit');
  });

  it('stops an endless loop that catches every error, and one of awaits', async () => {
    expect(sentence(await run('for (;;) { try { for (;;) {} } catch { /* keep going */ } }'))).to.match(/MCP_CODE_CPU_MS/);
    expect(sentence(await run('for (;;) await null;'))).to.match(/MCP_CODE_CPU_MS/);
  });

  it('stops a memory bomb at its memory limit', async () => {
    const result = await run("let text = 'boom';\nfor (;;) { text = text + text; text.charCodeAt(0); }");
    expect(sentence(result)).to.equal('The program used more than 16 MiB of memory, its limit (MCP_CODE_MEMORY_MB), and was stopped.');
  });

  it('stops a 100 MB string at its memory limit, and refuses a 100 MB program before it is compiled', async () => {
    expect(sentence(await run("const big = 'x'.repeat(100 * 1024 * 1024);\nconsole.log(big.length);"))).to.match(/MCP_CODE_MEMORY_MB/);
    const huge = await t.kernel.call('execute', { code: `// ${'x'.repeat(100 * 1024 * 1024)}` });
    expect(huge.isError).to.equal(true);
    expect(textOf(huge)).to.include('Code: invalid_arguments');
  });

  it('stops deep recursion at its stack', async () => {
    const result = await run('function down(n: number): number { return down(n + 1) + 1; }\ndown(0);');
    expect(sentence(result)).to.equal('The program recursed too deeply and overflowed its stack, and was stopped.');
  });

  it('stops a program that awaits what can never settle, at once', async () => {
    const started = Date.now();
    const result = await run('await new Promise(() => {});');
    expect(sentence(result)).to.equal(
      'The program awaits a promise that can never settle (no tool call is in flight and there are no timers), and was stopped.',
    );
    // Told before the wall-time limit, not by it (a message, not a timing: the limit has its own sentence).
    expect(Date.now() - started).to.be.below(1500);
  });

  it('stops a program whose tool call outlasts its wall time', async () => {
    t.mock.on('GET', RUNS, { delayMs: 4000, body: { total_count: 0, workflow_runs: [] } });
    const result = await run(`await ${LIST};`);
    expect(sentence(result)).to.equal('The program ran longer than 1500 ms, its wall-time limit (MCP_CODE_TIMEOUT_MS), and was stopped.');
  });

  it('stops thousands of tool calls at MCP_CODE_MAX_CALLS, having sent no more', async () => {
    t.mock.on('GET', RUNS, { body: { total_count: 0, workflow_runs: [] } });
    const result = await run(`for (let i = 0; i < 5000; i++) await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', page: i + 1 });`);
    expect(sentence(result)).to.equal('The program made more than 25 tool calls, its limit (MCP_CODE_MAX_CALLS), and was stopped.');
    expect(t.mock.requests.length).to.equal(25);
    expect(result._meta?.['mcp-devtools/calls']).to.have.length(25);
  });

  it('keeps what a program printed before it was stopped', async () => {
    const result = await run("console.log('step 1 done');\nwhile (true) {}");
    expect(textOf(result)).to.match(/MCP_CODE_CPU_MS[\s\S]*What it printed before:\nstep 1 done/);
  });

  it('holds the tools object against prototype pollution, and lets nothing through to the next program', async () => {
    const polluted = await run(
      [
        'const attempts: string[] = [];',
        "const trial = (what: string, act: () => void) => { try { act(); attempts.push(what + ' changed'); } catch { attempts.push(what + ' refused'); } };",
        "trial('method', () => { (tools as any).github_list_workflow_runs = () => 'forged'; });",
        "trial('prototype', () => { Object.setPrototypeOf(tools, { forged: true }); });",
        "trial('new tool', () => { (tools as any).forged = () => 1; });",
        "trial('global', () => { (globalThis as any).tools = {}; });",
        "(Object.prototype as any).polluted = 'yes';",
        "(globalThis as any).leftBehind = 'secret';",
        '(Array.prototype as any).push = () => 0;',
        "console.log(attempts.join(', '), typeof (tools as any).__proto__, Object.keys(tools).length > 0);",
      ].join('\n'),
    );
    expect(textOf(polluted)).to.equal('method refused, prototype refused, new tool refused, global refused undefined true');
    const next = await run('const seen = [({} as any).polluted, (globalThis as any).leftBehind, [1].push(2)];\nconsole.log(JSON.stringify(seen));');
    expect(textOf(next)).to.equal('[null,null,2]');
    expect(({} as Record<string, unknown>).polluted, 'the host').to.equal(undefined);
  });

  it('refuses arguments that try to pollute a prototype, as invalid arguments the program can catch', async () => {
    const result = await run(
      [
        `const forged = JSON.parse('{"owner": "octo-org", "repo": "octo-repo", "__proto__": {"isAdmin": true}}');`,
        'try { await tools.github_list_workflow_runs(forged); } catch (error) { console.log((error as ToolCallError).code); }',
      ].join('\n'),
    );
    expect(textOf(result)).to.equal('invalid_arguments');
    expect(t.mock.requests).to.have.length(0);
  });

  it('reports an uncaught error with its name and message', async () => {
    const result = await run("const runs: number[] = [];\nif (runs.length === 0) throw new RangeError('no runs at all');");
    expect(sentence(result)).to.equal('The program threw an error it did not catch: RangeError: no runs at all');
    expect(textOf(result)).to.include('Code: program_failed');
  });
});

describe('code mode: a program reaches nothing of the host', function () {
  this.timeout(60_000);
  // Types only stripped, so that a program may name what the declarations do not have.
  const t = useVendorKernel({
    plugins: ['github'],
    env: (url) => ({ GITHUB_API_URL: url, GITHUB_TOKEN: 'code-mode-token', MCP_CODE_MODE: 'true', MCP_CODE_TYPE_CHECK: 'false' }),
  });
  const run = (code: string): Promise<CallToolResult> => t.kernel.call('execute', { code });

  it('has no process, require, fetch, timers, file system, WebAssembly or module loader', async () => {
    const result = await run(
      [
        "const names = ['process', 'require', 'module', 'Buffer', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'std', 'os', 'WebAssembly', 'Deno', 'Bun'];",
        "console.log(names.filter((name) => typeof (globalThis as any)[name] !== 'undefined').join(',') || 'none');",
        "try { await import('node:fs'); console.log('imported'); } catch (error) { console.log('import refused'); }",
      ].join('\n'),
    );
    expect(textOf(result)).to.equal('none\nimport refused');
  });

  it('finds no host behind the constructors it can reach', async () => {
    const result = await run(
      [
        "const viaFunction = new Function('return typeof process + typeof require')();",
        "const viaAsync = (async () => {}).constructor('return typeof process')();",
        "const viaTools = await (tools.github_list_workflow_runs as any).constructor('return typeof process')();",
        "const viaError = (() => { try { null!.x; } catch (e) { return (e as any).constructor.constructor('return typeof require')(); } })();",
        'console.log(viaFunction, await viaAsync, viaTools, viaError);',
      ].join('\n'),
    );
    expect(textOf(result)).to.equal('undefinedundefined undefined undefined undefined');
  });
});
