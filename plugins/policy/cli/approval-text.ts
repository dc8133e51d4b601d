import type { ApprovalRecord } from '../approvals/approval-store.js';

/**
 * An approval as `mcp-devtools approvals list|show` prints it: what a console card shows, in text. The call
 * (tool, method and path), who asked, the identity that will act, the rule and the policy version, the
 * argument values an approver needs (as the approvals store kept them: redacted ones are "[REDACTED]"), and
 * the decision once there is one.
 */
export function describeApproval(r: ApprovalRecord): string {
  const request = r.request ? ` ${r.request.method} ${r.request.path}` : '';
  const decided = r.decidedBy ? ` by ${r.decidedBy}` : '';
  const lines = [
    `${r.id}  ${r.status}${decided}  until ${r.expiresAt}`,
    `  ${r.subject} [${r.groups.join(', ')}] called ${r.tool}${request}`,
    ...(r.identity ? [`  acts as ${r.identity.credential} (${r.identity.vendor}) at ${r.identity.host}, environment ${r.identity.environment}`] : []),
    `  rule ${r.ruleId ?? '(none)'}: ${r.reason}`,
    `  policy ${r.policyVersion}, asked at ${r.createdAt}`,
    `  arguments:`,
    ...pretty(r.arguments).map((l) => `    ${l}`),
    ...(r.redacted !== undefined && r.redacted.length > 0 ? [`  redacted: ${r.redacted.join(', ')}`] : []),
    ...(r.decidedBy
      ? [`  decided: ${r.status === 'used' ? 'granted, used' : r.status} by ${r.decidedBy} at ${r.decidedAt}${r.decisionReason ? `: ${r.decisionReason}` : ''}`]
      : []),
    '',
  ];
  return lines.join('\n');
}

function pretty(json: string): string[] {
  try {
    return JSON.stringify(JSON.parse(json), null, 2).split('\n');
  } catch {
    return [json];
  }
}
