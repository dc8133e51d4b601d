import Type from 'typebox';
import { perWorker, secret } from '../../core/config/setting-kinds.js';
import { WRITER_PATTERN } from './audit/audit-writers.js';

/** Settings of the enterprise plugin: all empty by default, so nothing changes until one is set. */
export const PolicySettings = Type.Object({
  MCP_POLICY_FILE: Type.String({
    default: '',
    description: 'YAML policy document; every call is decided by it, and what no rule allows is denied. Empty: no policy.',
  }),
  MCP_APPROVAL_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 604800,
    default: 900,
    description: 'How long a pending approval can be granted, and a grant used.',
  }),
  MCP_APPROVAL_MAX_PENDING: Type.Integer({
    minimum: 1,
    maximum: 10000,
    default: 20,
    description: 'Pending approvals one principal may have at once; past it, calls that need one are denied until some are decided or expire.',
  }),
  MCP_CONFIRMATION_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 300,
    description:
      "How long the person has to answer a confirm rule's question asked through input_required (2026-07-28 clients); a later answer is not taken, and they are asked again.",
  }),
  MCP_FLOW_TTL_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 604800,
    default: 28800,
    description: 'How long a session remembers that it read untrusted or private content, for flow rules (default: 8 hours).',
  }),
  MCP_APPROVER_GROUPS: Type.String({
    default: '',
    description:
      'Comma-separated groups whose members may grant or reject held calls (in the console, or through the admin endpoint and the CLI with their own token), never their own. Empty: nobody decides.',
  }),
  MCP_APPROVAL_REDACT: Type.String({
    default: '',
    description:
      "Comma-separated argument paths (dotted, * for any one key: body.*.password) whose values approvers never see, beside each rule's redact; secret-looking values are always hidden.",
  }),
  MCP_APPROVAL_WEBHOOK_URL: secret(
    Type.String({
      default: '',
      description:
        'Receivers told when a call is held, granted, rejected or expires undecided: http(s) URLs, comma-separated (a Slack incoming webhook shows the event as is); one at a loopback or private address needs MCP_EGRESS_ALLOW. Empty: none.',
    }),
  ),
  MCP_APPROVAL_WEBHOOK_SECRET: secret(
    Type.String({
      default: '',
      description: 'Key of the HMAC-SHA256 signature of each approval event (header mcp-devtools-signature: t=<time>,v1=<hex>). Empty: unsigned.',
    }),
  ),
  MCP_AUDIT_LOG: Type.String({
    default: '',
    description: 'Append-only, hash-chained JSON Lines audit log of every call. Empty: none.',
  }),
  MCP_AUDIT_WRITER: perWorker(
    Type.String({
      default: '',
      pattern: `${WRITER_PATTERN}|^$`,
      description:
        "This process's own chain of MCP_AUDIT_LOG: it appends to <MCP_AUDIT_LOG>.<writer> (letters, digits, _ and -), so replicas sharing a volume each keep one. Empty: the log itself (--workers adds w1, w2...).",
    }),
  ),
});

/** Services the plugin provides to the server (admin endpoint, CLI) and to tests. */
export const POLICY_TOKENS = {
  Approvals: 'mcp-devtools:Approvals',
  PolicySource: 'mcp-devtools:PolicySource',
  /** The AuditLog, when MCP_AUDIT_LOG is set (the console reads it and records approvers' decisions in it). */
  AuditLog: 'mcp-devtools:AuditLog',
  /** The ApprovalNotifier, when MCP_APPROVAL_WEBHOOK_URL is set (the console tells it where it is, for links). */
  Notifier: 'mcp-devtools:ApprovalNotifier',
  /** The ConsoleLink: the console's approvals pages say where they are served, for held calls' messages. */
  ConsoleLink: 'mcp-devtools:ApprovalsConsoleLink',
} as const;
