import type { Command } from 'commander';
import { verifyAuditLog } from '../../plugins/policy/index.js';

/** `mcp-devtools audit verify FILE`: exit 0 when the chain is intact, 1 with every problem named otherwise. */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('audit log tools');
  audit
    .command('verify <file>')
    .description('check that no record of an audit log was edited, removed, inserted or reordered, and that its end is intact')
    .action(async (file: string) => {
      let report;
      try {
        report = await verifyAuditLog(file);
      } catch (error) {
        throw new Error(`Cannot read the audit log ${file}: ${(error as Error).message}`, { cause: error });
      }
      for (const note of report.notes) process.stderr.write(`note: ${note}\n`);
      if (report.ok) {
        process.stdout.write(`${file}: OK, ${report.records} records, chain intact.\n`);
        return;
      }
      process.stdout.write(`${file}: FAILED (${report.records} records read)\n${report.problems.map((p) => `  ${p}`).join('\n')}\n`);
      process.exitCode = 1;
    });
}
