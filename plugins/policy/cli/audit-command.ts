import type { Command } from 'commander';
import { chainLabel } from '../audit/audit-writers.js';
import { verifyAuditLog } from '../audit/verify-audit-log.js';

/**
 * `mcp-devtools audit verify FILE`: every writer's chain of the log (FILE itself, and FILE.<writer> of each
 * `--workers` worker or replica), each on its own; exit 0 when all are intact, 1 with every problem named
 * (the writer, the line and the record) otherwise. `--json` prints the same report for scripts.
 */
export function registerAudit(audit: Command): void {
  audit
    .command('verify <file>')
    .description(
      "check that no record of an audit log (and of each writer's FILE.<writer> chain) was edited, removed, inserted or reordered, and that each chain's end is intact",
    )
    .option('--json', 'print the report as JSON: {file, ok, records, chains: [{writer, path, records, ok}], problems, notes}')
    .action(async (file: string, options: { json?: boolean }) => {
      let report;
      try {
        report = await verifyAuditLog(file);
      } catch (error) {
        throw new Error(`Cannot read the audit log ${file}: ${(error as Error).message}`, { cause: error });
      }
      if (options.json) {
        const chains = report.chains.map(({ writer, path, records, ok }) => ({ writer, path, records, ok }));
        process.stdout.write(
          `${JSON.stringify({ file, ok: report.ok, records: report.records, chains, problems: report.problems, notes: report.notes }, null, 2)}\n`,
        );
        process.exitCode = report.ok ? 0 : 1;
        return;
      }
      for (const note of report.notes) process.stderr.write(`note: ${note}\n`);
      const several = report.chains.length > 1 || report.chains[0]?.writer !== '';
      const perChain = several ? report.chains.map((c) => `  ${chainLabel(c)}: ${c.records} records, ${c.ok ? 'intact' : 'BROKEN'}\n`).join('') : '';
      const chains = several ? ` in ${report.chains.length} writers' chains` : '';
      if (report.ok) {
        process.stdout.write(`${file}: OK, ${report.records} records${chains}, ${several ? 'every chain' : 'chain'} intact.\n${perChain}`);
        return;
      }
      process.stdout.write(`${file}: FAILED (${report.records} records read${chains})\n${perChain}${report.problems.map((p) => `  ${p}`).join('\n')}\n`);
      process.exitCode = 1;
    });
}
