// docs/policy.md's `audit verify` sample, made as its text describes it: a log of two writers' chains, 31 and
// 29 records, record 7 of w2 edited. The output it shows is what the command prints for it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AuditLog } from '../../plugins/policy/audit/audit-log.js';
import { readDoc, shellWords, terminalSamples } from '../support/markdown.js';
import { runCli } from '../support/run-cli.js';

async function writeChain(path: string, count: number, subject: string): Promise<void> {
  const log = await AuditLog.open(path);
  for (let i = 0; i < count; i++) {
    await log.append({
      time: new Date(Date.UTC(2026, 10, 30, 9, 0, i)).toISOString(),
      principal: { subject, groups: ['developers'], via: 'tokens' },
      tool: 'jira_get',
      decision: null,
      upstream: { vendor: 'jira', credential: 'jira-bot', host: 'acme.atlassian.net', environment: 'production' },
      outcome: { status: 'ok' },
      durationMs: 2.5,
      args: { path: 'string' },
    });
  }
  await log.close();
}

describe('docs/policy.md', () => {
  it('shows what `audit verify` prints for a log whose second writer had a record edited', async () => {
    const [sample, ...others] = terminalSamples(readDoc('docs/policy.md')).filter((s) => s.command.startsWith('mcp-devtools audit verify '));
    expect(others).to.deep.equal([]);
    const [, , , documented] = shellWords(sample!.command);
    const root = mkdtempSync(join(tmpdir(), 'policy-doc-'));
    const folder = join(root, 'var/log/mcp-devtools');
    mkdirSync(folder, { recursive: true });
    const log = join(folder, 'audit.jsonl');
    await writeChain(`${log}.w1`, 31, 'alice');
    await writeChain(`${log}.w2`, 29, 'rene');
    const lines = readFileSync(`${log}.w2`, 'utf8').split('\n').filter(Boolean);
    lines[6] = lines[6]!.replace('"subject":"rene"', '"subject":"mallory"');
    writeFileSync(`${log}.w2`, `${lines.join('\n')}\n`);
    const ran = await runCli(['audit', 'verify', log]);
    expect(ran.code).to.equal(1);
    expect(ran.stdout.replaceAll(log, documented!)).to.equal(`${sample!.output}\n`);
  });
});
