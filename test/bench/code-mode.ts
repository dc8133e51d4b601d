import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { CodeModeSettingsSchema, type ProgramLimits } from '../../plugins/code-mode/code-mode-settings.js';
import { SandboxPool } from '../../plugins/code-mode/sandbox/sandbox-pool.js';
import { REPO_ROOT } from '../support/paths.js';
import { connectStdio } from '../support/sdk-client.js';
import { since, summarize, type Summary } from './stats.js';

/** What the model writes and reads for one task one way (examples/code-mode, `npm run measure:server`). */
interface Reading {
  bytes: number;
  tokens: number;
}
export interface CodeModeTaskTokens {
  id: string;
  direct: { turns: number; toolCalls: number; written: Reading; read: Reading };
  codeMode: {
    turns: number;
    toolCalls: number;
    written: Reading;
    read: Reading;
    /** The reads and writes apart: search_tools asked and answered, the execute call (the program), what it printed. */
    parts: { searchCall: Reading; searchAnswer: Reading; program: Reading; printed: Reading };
  };
}
export interface CodeModeTokens {
  /** tools/list as sent (JSON): the toolsets the tasks use, every tool (the whole catalogue), --code-mode. */
  definitions: { direct: Reading & { tools: number }; catalogue: Reading & { tools: number }; codeMode: Reading & { tools: number } };
  tasks: CodeModeTaskTokens[];
}

export interface CodeModeOverhead {
  /** github_list_workflow_runs called directly, in milliseconds a call. */
  direct: Summary;
  /** The same call made by a program through execute, the same program each time (compiled once, then cached). */
  executeSame: Summary;
  /** A new program each time (a comment differs): type-checked, then run. */
  executeNew: Summary;
}

export interface CodeModeBench {
  tokens: CodeModeTokens;
  overhead: CodeModeOverhead;
  /** Milliseconds from a program handed to a sandbox thread to a sandbox ready to run it (fresh QuickJS instance, limits, prelude). */
  sandboxStartup: Summary;
}

const RUNS = '/repos/octo-org/octo-repo/actions/runs';
const ARGS = { owner: 'octo-org', repo: 'octo-repo', jq: 'workflow_runs[*].{id: id, conclusion: conclusion}' };

/** The six tasks' token figures: the example package measures them (its vendor worlds and tasks live there). */
function measureTokens(outFile: string, install: boolean): CodeModeTokens {
  const example = join(REPO_ROOT, 'examples/code-mode');
  if (install) execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: example, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['run', 'measure:server', '--', '--json', outFile], { cwd: example, stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(outFile, 'utf8')) as CodeModeTokens;
}

async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ms = since(started);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return ms;
}

/** Direct call and execute side by side on one server (dist/cli.js, stdio), taking turns. */
async function measureOverhead(calls: number): Promise<CodeModeOverhead> {
  const mock = await MockUpstream.start();
  mock.on('GET', RUNS, {
    body: {
      total_count: 2,
      workflow_runs: [
        { id: 1, conclusion: 'failure' },
        { id: 2, conclusion: 'success' },
      ],
    },
  });
  const session = await connectStdio({
    env: { GITHUB_API_URL: mock.url, GITHUB_TOKEN: 'bench-token', MCP_TOOLSETS: 'github.actions,code', MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'warn' },
  });
  try {
    const program = (n?: number): string =>
      `${n === undefined ? '' : `// run ${n}\n`}return (await tools.github_list_workflow_runs(${JSON.stringify(ARGS)})).data;`;
    for (let i = 0; i < 50; i++) {
      await timed(session.client, 'github_list_workflow_runs', ARGS);
      await timed(session.client, 'execute', { code: program() });
    }
    const direct: number[] = [];
    const same: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < calls; i++) {
      direct.push(await timed(session.client, 'github_list_workflow_runs', ARGS));
      same.push(await timed(session.client, 'execute', { code: program() }));
      fresh.push(await timed(session.client, 'execute', { code: program(i) }));
    }
    return { direct: summarize(direct), executeSame: summarize(same), executeNew: summarize(fresh) };
  } finally {
    await session.close();
    await mock.close();
  }
}

/** The sandbox's own start-up, per program, on a warm sandbox thread (in this process, through the plugin's pool). */
async function measureSandboxStartup(programs: number): Promise<Summary> {
  const limits = defaultLimits();
  const pool = new SandboxPool(1);
  const host = { toolNames: ['noop'], call: async () => '{"ok":true,"value":null}', print: () => {} };
  const script = 'async function __program__() { return 1; }\n__program__();\n';
  try {
    const samples: number[] = [];
    for (let i = 0; i < programs + 20; i++) {
      const run = await pool.run(script, host, limits, new AbortController().signal);
      if (i >= 20) samples.push(run.startupMs);
    }
    return summarize(samples);
  } finally {
    await pool.close();
  }
}

/** The limits a server runs programs under when nothing is set: the settings' defaults. */
function defaultLimits(): ProgramLimits {
  const value = (key: keyof typeof CodeModeSettingsSchema.properties): number =>
    (CodeModeSettingsSchema.properties[key] as { default?: unknown }).default as number;
  return {
    wallMs: value('MCP_CODE_TIMEOUT_MS'),
    cpuMs: value('MCP_CODE_CPU_MS'),
    memoryBytes: value('MCP_CODE_MEMORY_MB') * 1024 * 1024,
    outputBytes: value('MCP_CODE_OUTPUT_BYTES'),
    maxCalls: value('MCP_CODE_MAX_CALLS'),
  };
}

/** The code-mode section of the bench: tokens of six tasks both ways, the overhead of execute, the sandbox's start-up. */
export async function benchCodeMode(options: { calls: number; programs: number; tokensFile: string; installExample?: boolean }): Promise<CodeModeBench> {
  return {
    tokens: measureTokens(options.tokensFile, options.installExample ?? true),
    overhead: await measureOverhead(options.calls),
    sandboxStartup: await measureSandboxStartup(options.programs),
  };
}
