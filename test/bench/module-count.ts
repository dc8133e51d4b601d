/**
 * `node build/test/bench/module-count.js`: how many product modules one warm jira_get runs through, and how many
 * of them before its request leaves (docs/architecture.md says why the count matters and how it is taken).
 *
 * In-process, compiled by tsc (build/, one file per module), so a module is a source file: the kernel as the test
 * kit starts it, the official SDK client over the SDK's in-memory transport, Jira mocked on loopback. After a
 * hundred warm-up calls, V8's precise coverage (call counts, reset by each take) is taken just before the call,
 * again when the mock receives its request (what ran before the request left), and once the answer is in.
 * A product module is a file under build/core, build/plugins or build/server with a function that ran.
 */
import 'reflect-metadata';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel } from '../support/test-kernel.js';
import { REPO_ROOT } from '../support/paths.js';
import { JIRA_CREDENTIALS, jiraSearchBody, serveJiraSearch, TYPICAL_JIRA_JQ } from './jira-bodies.js';

interface ScriptCoverage {
  url: string;
  functions: Array<{ ranges: Array<{ count: number }> }>;
}

// The test kit's mock upstream (server/testing) is the vendor's side, not the call's.
const PRODUCT = /^build\/(core|plugins|server)\/(?!testing\/)/;

export interface ModuleCount {
  /** Product modules with code that ran between the call's request and its answer. */
  total: string[];
  /** Those that ran before the mock received the upstream request. */
  beforeRequest: string[];
}

/** Takes V8's precise coverage now (synchronously dispatched in-process) and resets the counts. */
function take(session: Session): Promise<ScriptCoverage[]> {
  return new Promise((resolve, reject) => {
    session.post('Profiler.takePreciseCoverage', (error, taken) => (error ? reject(error) : resolve((taken as { result: ScriptCoverage[] }).result)));
  });
}

function productModulesRun(coverage: readonly ScriptCoverage[]): string[] {
  const run = new Set<string>();
  for (const script of coverage) {
    if (!script.url.startsWith('file:')) continue;
    const path = relative(REPO_ROOT, fileURLToPath(script.url));
    if (!PRODUCT.test(path)) continue;
    // A function's first range is the function itself; the module's top level ran only when it was loaded.
    if (script.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) run.add(path.replace(/^build\//, '').replace(/\.js$/, '.ts'));
  }
  return [...run].sort();
}

export async function countModules(): Promise<ModuleCount> {
  const mock = await MockUpstream.start();
  const kernel = await startTestKernel({ env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, MCP_TOOLSETS: 'jira', LOG_LEVEL: 'warn' } });
  const session = new Session();
  session.connect();
  try {
    const client = await kernel.connect();
    const args = { path: '/rest/api/3/search/jql', jq: TYPICAL_JIRA_JQ };
    serveJiraSearch(mock, jiraSearchBody(2048));
    for (let i = 0; i < 100; i++) await client.callTool({ name: 'jira_get', arguments: args });
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    let atRequest: Promise<ScriptCoverage[]> | undefined;
    const body = jiraSearchBody(2048);
    mock.reset();
    mock.on('GET', '/rest/api/3/search/jql', () => {
      atRequest ??= take(session);
      return { status: 200, headers: { 'content-type': 'application/json;charset=UTF-8' }, body };
    });
    await take(session);
    const result = await client.callTool({ name: 'jira_get', arguments: args });
    const after = await take(session);
    if (result.isError === true || atRequest === undefined) throw new Error(`the measured call failed: ${JSON.stringify(result).slice(0, 300)}`);
    const before = productModulesRun(await atRequest);
    return { total: [...new Set([...before, ...productModulesRun(after)])].sort(), beforeRequest: before };
  } finally {
    session.disconnect();
    await kernel.close();
    await mock.close();
  }
}

function post(session: Session, method: string, params?: object): Promise<void> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error) => (error ? reject(error) : resolve())));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const counted = await countModules();
  const verbose = process.argv.includes('--list');
  process.stdout.write(`jira_get, one warm call: ${counted.total.length} product modules, ${counted.beforeRequest.length} before the request leaves\n`);
  if (verbose) {
    process.stdout.write(`before the request leaves:\n${counted.beforeRequest.map((m) => `  ${m}`).join('\n')}\n`);
    const afterOnly = counted.total.filter((m) => !counted.beforeRequest.includes(m));
    process.stdout.write(`after it:\n${afterOnly.map((m) => `  ${m}`).join('\n')}\n`);
  }
}
