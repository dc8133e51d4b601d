import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { CommandKit, ConfigOptions } from '../../../core/plugin/contributions.js';
import { InvalidDocumentError } from '../../../core/schema/yaml-document.js';
import { readPolicyDocument } from '../document/policy-document.js';
import type { CallFacts } from '../engine/call-facts.js';
import type { Decision, RuleTrace } from '../engine/policy-engine.js';
import { loadPolicyFile } from '../policy-source.js';
import { explainCall } from '../engine/explain-call.js';

interface ExplainOptions extends ConfigOptions {
  verbose?: boolean;
  tool: string;
  args: string;
  subject: string;
  group: string[];
  via: string;
  json?: boolean;
}

/** `mcp-devtools policy check FILE` and `policy explain FILE --tool T --args JSON --subject S [--group G]`. */
export function registerPolicy(policy: Command, cli: CommandKit): void {
  policy
    .command('check <file>')
    .description('validate a policy document; every problem is printed with its line')
    .option('--json', 'print the result as JSON: {file, valid, rules, version} or {file, valid, problems: [{line, message}]}')
    .action(async (file: string, options: { json?: boolean }) => {
      const text = await readFile(file, 'utf8').catch((error: Error) => {
        throw new Error(`Cannot read ${file}: ${error.message}`);
      });
      try {
        const loaded = readPolicyDocument(text, file);
        const { length: rules } = loaded.document.rules;
        process.stdout.write(
          options.json
            ? `${JSON.stringify({ file, valid: true, rules, version: loaded.version }, null, 2)}\n`
            : `${file}: valid, ${rules} rules, version ${loaded.version}\n`,
        );
      } catch (error) {
        if (!(error instanceof InvalidDocumentError)) throw error;
        // A script reads the problems from stdout with --json; a person reads them on stderr, each with its line.
        if (options.json) process.stdout.write(`${JSON.stringify({ file, valid: false, problems: error.problems }, null, 2)}\n`);
        else process.stderr.write(`${error.message}\n`);
        process.exitCode = 1;
      }
    });
  cli
    .withVerboseOption(
      cli.withConfigOptions(
        policy
          .command('explain <file>')
          .description('decide one call as the server would, printing the decision and every rule that held or failed')
          .requiredOption('--tool <name>', 'the tool called')
          .option('--args <json>', 'the arguments, as a JSON object', '{}')
          .requiredOption('--subject <subject>', "the caller's subject")
          .addOption(new Option('--group <group>', 'a group of the caller (repeatable)').argParser((v: string, all: string[]) => [...all, v]).default([]))
          .option('--via <mode>', 'how the caller was authenticated (tokens, oidc, local)', 'tokens')
          .option('--json', 'print JSON'),
      ),
    )
    .action(async (file: string, options: ExplainOptions) => explain(cli, file, options));
}

async function explain(cli: CommandKit, file: string, options: ExplainOptions): Promise<void> {
  const args = parseArgs(options.args);
  const { engine } = await loadPolicyFile(file).catch((error: Error) => {
    throw new Error(error instanceof InvalidDocumentError ? error.message : `Cannot read ${file}: ${error.message}`);
  });
  // The vendors' routes and clients decide the request the policy sees: boot them as the server does,
  // without the server's own policy and audit log.
  const { kernel, close } = await cli.startKernel(options, { MCP_POLICY_FILE: '', MCP_AUDIT_LOG: '' });
  try {
    const principal = { subject: options.subject, groups: options.group, via: options.via };
    const { decision, hiddenByReadOnly: hidden, call: facts, rules, request } = explainCall(kernel, engine, options.tool, args, principal);
    if (options.json) process.stdout.write(`${JSON.stringify({ decision, hiddenByReadOnly: hidden, call: facts, request, rules }, null, 2)}\n`);
    else process.stdout.write(render(file, decision, facts, rules, hidden, request));
  } finally {
    await close();
  }
}

function parseArgs(raw: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (error) {
    throw new Error(`--args must be a JSON object, such as '{"path": "/rest/api/3/issue"}': ${(error as Error).message}`, { cause: error });
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new Error('--args must be a JSON object.');
  return args as Record<string, unknown>;
}

function render(file: string, decision: Decision, facts: CallFacts, rules: RuleTrace[], hidden: boolean, request?: { path: string; url: string }): string {
  const out: string[] = [];
  out.push(`Decision: ${decision.effect}${decision.ruleId === null ? ' (no rule allows it)' : ` by rule ${decision.ruleId}`}: ${decision.reason}`);
  if (decision.effect === 'approval_required') out.push('          The server would hold the call until an approver grants it (explain creates no approval).');
  if (decision.effect === 'confirm')
    out.push(
      '          The server would ask the person to confirm the call (form-mode elicitation), or hold it for an approver when their client cannot be asked.',
    );
  if (hidden) out.push('          Note: MCP_READ_ONLY=true hides this tool, so the server would not offer it at all.');
  out.push(`Policy:   ${file} (version ${decision.policyVersion})`);
  out.push(`Call:     ${facts.tool}${facts.method !== null ? ` ${facts.method} ${facts.path ?? ''}` : ''} (${facts.readOnly ? 'read-only' : 'writes'})`);
  if (facts.path !== null)
    out.push(
      `Path:     ${facts.path} (what path rules matched${request !== undefined && request.path !== facts.path ? `; sent as ${request.path}` : ''}; URL ${request?.url ?? '?'})`,
    );
  const op = facts.graphql;
  if (op !== null && op !== undefined) {
    const several = op.fields.length > 1 ? '; decided field by field, the strictest decision wins' : '';
    out.push(`GraphQL:  ${op.operation} ${op.name ?? '(anonymous)'}, root fields [${op.fields.join(', ')}] (what graphql rules matched${several})`);
  }
  out.push(`Caller:   ${facts.subject}, groups [${facts.groups.join(', ')}]`);
  const id = facts.identity;
  out.push(`Upstream: ${facts.vendor}${id ? `, credential ${id.credential} at ${id.host}, environment ${id.environment}` : ' (no upstream)'}`);
  out.push('', 'Rules (deny beats approval_required beats allow; what no rule allows is denied):');
  for (const rule of rules) {
    out.push(`  ${rule.line === undefined ? '' : `line ${rule.line}: `}${rule.id} (${rule.effect}): ${rule.applies ? 'APPLIES' : 'does not apply'}`);
    for (const c of rule.conditions) out.push(`      ${c.holds ? 'holds ' : 'fails '} ${c.block} ${c.key} ${c.expected}; the call has ${c.actual}`);
  }
  return `${out.join('\n')}\n`;
}
