import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_PRINCIPAL } from '../../core/identity/principal.js';
import { STAGES } from '../../core/pipeline/pipeline.js';
import { MockUpstream } from '../../server/testing/mock-upstream.js';
import { startTestKernel } from '../support/test-kernel.js';
import { JIRA_CREDENTIALS, SEARCH_PATH, TYPICAL_JIRA_JQ, jiraSearchBody, serveJiraSearch } from './jira-bodies.js';
import { generatePolicy } from './policy-rules.js';
import { since, median } from './stats.js';

/** Rows of the breakdown: every pipeline stage, the sub-steps inside them, and the whole call. */
export const BREAKDOWN_ROWS = [...STAGES, 'network', 'in-process'] as const;

export interface BreakdownColumn {
  label: string;
  /** Median microseconds per row over the calls. */
  micros: Record<string, number>;
}

/**
 * Microseconds per stage of jira_get, in-process (kernel.callTimed), with every cross-cutting plugin doing
 * real work: a 500-rule policy decides each call, structured output is on (values over 256 KiB spill to an
 * artifact in the memory store), and text over 40,000 characters is cut with the whole saved to a file.
 * `upstream` is the handler's own time; the network exchange inside it is shown as `network`.
 */
export async function benchStages(sizes: number[], calls: number): Promise<BreakdownColumn[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-devtools-bench-'));
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, generatePolicy(500));
  const mock = await MockUpstream.start();
  const kernel = await startTestKernel({
    configFile: { content: JSON.stringify({ plugins: ['jira'] }) },
    env: { ...JIRA_CREDENTIALS, JIRA_BASE_URL: mock.url, MCP_POLICY_FILE: policyFile, MCP_STRUCTURED_OUTPUT: 'true', LOG_LEVEL: 'warn' },
  });
  const columns: BreakdownColumn[] = [];
  try {
    // JIT and lazy initialisation first, so the first column is not the slowest for no reason of its own.
    serveJiraSearch(mock, jiraSearchBody(20 * 1024));
    for (let i = 0; i < 60; i++) await kernel.kernel.callTimed('jira_get', { path: SEARCH_PATH, ...(i % 2 ? { jq: TYPICAL_JIRA_JQ } : {}) }, LOCAL_PRINCIPAL);
    for (const bytes of sizes) {
      const body = jiraSearchBody(bytes);
      serveJiraSearch(mock, body);
      for (const jq of [false, true]) {
        const args: Record<string, unknown> = { path: SEARCH_PATH, queryParams: { maxResults: '50' } };
        if (jq) args.jq = TYPICAL_JIRA_JQ;
        const samples = new Map<string, number[]>(BREAKDOWN_ROWS.map((row) => [row, []]));
        for (let i = 0; i < calls + 3; i++) {
          const started = performance.now();
          const { result, timings } = await kernel.kernel.callTimed('jira_get', args, LOCAL_PRINCIPAL);
          const total = since(started) * 1000;
          if (result.isError) throw new Error(`jira_get failed during the stage breakdown: ${JSON.stringify(result.content).slice(0, 500)}`);
          if (i < 3) continue; // warm-up
          for (const stage of STAGES) samples.get(stage)!.push(timings[stage] ?? 0);
          // The network exchange is timed inside the handler: show the handler's own time without it.
          samples.get('upstream')!.splice(-1, 1, (timings.upstream ?? 0) - (timings.network ?? 0));
          samples.get('network')!.push(timings.network ?? 0);
          samples.get('in-process')!.push(total);
        }
        const micros = Object.fromEntries([...samples].map(([row, values]) => [row, median(values)]));
        columns.push({ label: `${body.length} B${jq ? ' +jq' : ''}`, micros });
      }
    }
  } finally {
    await kernel.close();
    await mock.close();
  }
  return columns;
}
