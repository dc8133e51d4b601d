import type { CallToolResult } from '@modelcontextprotocol/client';

/** The policy decision a refusal carries in `_meta.decision` (structured-output.md, "Errors"). */
export interface PolicyDecision {
  effect: string;
  ruleId?: string;
  reason?: string;
  policyVersion?: string;
  approvalId?: string;
  expiresAt?: string;
  [key: string]: unknown;
}

/** A tool error as plain data: what crosses between the harness and a sandbox, as JSON. */
export interface ToolErrorRecord {
  kind: 'tool' | 'policy_denied' | 'approval_required' | 'incomplete';
  tool: string;
  message: string;
  /** The catalogue code (`upstream_http_error`, `policy_denied`...), or null when the text names none. */
  code: string | null;
  /** The error text exactly as the server returned it. */
  text: string;
  meta: Record<string, unknown>;
  decision?: PolicyDecision;
  /** For `incomplete`: the `incomplete.reason` of the result (`size`, `unavailable`). */
  reason?: string;
}

/**
 * The typed exceptions of a tool call. One self-contained function defines them so that the same classes exist
 * in two realms: the harness calls it once (below), and the sandbox evaluates its source text inside each fresh
 * context, so that a program's `e instanceof PolicyDeniedError` tests classes of its own realm and no host object
 * ever reaches the program. It must therefore use nothing from outside its own body.
 */
export function defineToolErrors() {
  /** A tool call that gave no usable value: an `isError` result, or an incomplete value that cannot be read back. */
  class ToolCallError extends Error {
    readonly tool: string;
    readonly code: string | null;
    readonly text: string;
    readonly meta: Record<string, unknown>;
    constructor(record: ToolErrorRecord) {
      super(record.message);
      this.name = new.target.name;
      this.tool = record.tool;
      this.code = record.code;
      this.text = record.text;
      this.meta = record.meta;
    }
    get kind(): ToolErrorRecord['kind'] {
      return 'tool';
    }
    toRecord(): ToolErrorRecord {
      return { kind: this.kind, tool: this.tool, message: this.message, code: this.code, text: this.text, meta: this.meta };
    }
  }
  /** What the two policy outcomes share: the decision, which says which rule applied and why. */
  class PolicyRefusal extends ToolCallError {
    readonly decision: PolicyDecision;
    constructor(record: ToolErrorRecord) {
      super(record);
      this.decision = record.decision ?? { effect: 'unknown' };
    }
    override toRecord(): ToolErrorRecord {
      return { ...super.toRecord(), decision: this.decision };
    }
  }
  /** The enterprise policy refused the call. */
  class PolicyDeniedError extends PolicyRefusal {
    override get kind() {
      return 'policy_denied' as const;
    }
  }
  /** The call waits for an approver; `decision.approvalId` and `decision.expiresAt` say which grant and until when. */
  class ApprovalRequiredError extends PolicyRefusal {
    override get kind() {
      return 'approval_required' as const;
    }
  }
  /** The result said `incomplete` and named no artifact to read it back from: narrow the request (jq, perPage). */
  class IncompleteResultError extends ToolCallError {
    readonly reason: string;
    constructor(record: ToolErrorRecord) {
      super(record);
      this.reason = record.reason ?? 'unknown';
    }
    override get kind() {
      return 'incomplete' as const;
    }
    override toRecord(): ToolErrorRecord {
      return { ...super.toRecord(), reason: this.reason };
    }
  }
  function fromRecord(record: ToolErrorRecord): ToolCallError {
    if (record.kind === 'policy_denied') return new PolicyDeniedError(record);
    if (record.kind === 'approval_required') return new ApprovalRequiredError(record);
    if (record.kind === 'incomplete') return new IncompleteResultError(record);
    return new ToolCallError(record);
  }
  return { ToolCallError, PolicyDeniedError, ApprovalRequiredError, IncompleteResultError, fromRecord };
}

export type ToolErrorClasses = ReturnType<typeof defineToolErrors>;

const HOST = defineToolErrors();
export const ToolCallError = HOST.ToolCallError;
export type ToolCallError = InstanceType<typeof ToolCallError>;
export const PolicyDeniedError = HOST.PolicyDeniedError;
export type PolicyDeniedError = InstanceType<typeof PolicyDeniedError>;
export const ApprovalRequiredError = HOST.ApprovalRequiredError;
export type ApprovalRequiredError = InstanceType<typeof ApprovalRequiredError>;
export const IncompleteResultError = HOST.IncompleteResultError;
export type IncompleteResultError = InstanceType<typeof IncompleteResultError>;
/** The harness-side error of a record (a tool error a program did not catch). */
export const toolErrorFromRecord = HOST.fromRecord;

/** The first text block of a result ('' when there is none). */
export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/**
 * The record of an `isError` result. The policy layer's refusals carry `_meta.code` and `_meta.decision`; other
 * errors name their code only in the text, on the `Code:` line of the server's one error layout.
 */
export function errorRecordOf(tool: string, result: CallToolResult): ToolErrorRecord {
  const text = resultText(result);
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  const code = typeof meta.code === 'string' ? meta.code : (/^Code: (\S+)$/m.exec(text)?.[1] ?? null);
  const firstLine = text.split('\n', 1)[0]!.replace(/^Error: /, '');
  const record: ToolErrorRecord = { kind: 'tool', tool, message: `${tool}: ${firstLine || 'the tool returned an error'}`, code, text, meta };
  const decision = meta.decision as PolicyDecision | undefined;
  if (code === 'policy_denied') return { ...record, kind: 'policy_denied', decision };
  if (code === 'approval_required') return { ...record, kind: 'approval_required', decision };
  return record;
}
