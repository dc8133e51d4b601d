import type { PublicIdentity } from '../../engine/call-facts.js';
import { setDataMember } from '../../../../core/result/data-member.js';
import { actsAs } from '../../../../core/plugin/public-upstream.js';
import type { ApprovalRecord } from '../approval-record.js';
import { REDACTED } from '../secret-shaped.js';

export type ApprovalEventType = 'approval.held' | 'approval.granted' | 'approval.rejected' | 'approval.expired';

/** What a webhook receiver is sent when a call is held, granted, rejected, or expires undecided. */
export interface ApprovalEvent {
  /** `<approval id>.<held|granted|rejected|expired>`: the same for every attempt, so a receiver can drop repeats. */
  id: string;
  type: ApprovalEventType;
  time: string;
  approval: {
    id: string;
    tool: string;
    request: { method: string; path: string } | null;
    principal: { subject: string; groups: string[]; via: string };
    rule: { id: string | null; reason: string };
    policyVersion: string;
    /** The upstream identity that will act if it runs: credential label, host, environment. */
    identity: PublicIdentity | null;
    /** Who acts, in words: "acts as alice on GitHub" (a person's linked account) or "acts as GITHUB_TOKEN (production)". */
    acts: string | null;
    /**
     * The argument preview approvers see (redacted values are "[REDACTED]"), less the values of the tool's
     * free-form maps, each "[WITHHELD]": a receiver (often a third party, a chat channel) is sent their names.
     */
    arguments: unknown;
    redacted: string[];
    /** The free-form maps whose values were withheld (`parameters`): approvers see them in the console. */
    withheld: string[];
    createdAt: string;
    /** Until when a pending call can be decided, or a decision holds. */
    expiresAt: string;
    /** The approval in the console, when the console is on. */
    url: string | null;
  };
  /** On `approval.granted` and `approval.rejected`: who decided, when and why. */
  decision?: { status: 'granted' | 'rejected'; by: string; at: string; reason: string | null };
  /** The event in one line of Slack mrkdwn: a Slack incoming webhook shows it as it is. */
  text: string;
}

/** The event of one change of an approval, read from its record as it now is. */
export function approvalEvent(type: ApprovalEventType, record: ApprovalRecord, time: string, consoleUrl: string | undefined): ApprovalEvent {
  const event: Omit<ApprovalEvent, 'text'> = {
    id: `${record.id}.${type.slice('approval.'.length)}`,
    type,
    time,
    approval: {
      id: record.id,
      tool: record.tool,
      request: record.request ?? null,
      principal: { subject: record.subject, groups: record.groups, via: record.via },
      rule: { id: record.ruleId, reason: record.reason },
      policyVersion: record.policyVersion,
      identity: record.identity ?? null,
      acts: record.identity ? actsAs(record.identity) : null,
      arguments: withheldValues(parsed(record.arguments), record.withheld ?? []),
      redacted: record.redacted ?? [],
      withheld: record.withheld ?? [],
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
      url: consoleUrl === undefined ? null : `${consoleUrl}/console/approvals/${record.id}`,
    },
    ...((type === 'approval.granted' || type === 'approval.rejected') && record.decidedBy !== undefined
      ? {
          decision: {
            status: type === 'approval.granted' ? ('granted' as const) : ('rejected' as const),
            by: record.decidedBy,
            at: record.decidedAt ?? time,
            reason: record.decisionReason ?? null,
          },
        }
      : {}),
  };
  return { ...event, text: slackText(event) };
}

/**
 * One line a person reads in a chat channel: what happened, the call (tool, method and path), who asked, the
 * identity that acts, the rule, and the console link. Everything but the link is escaped as Slack asks
 * (`&`, `<`, `>`), so a path or reason cannot forge a link or a mention.
 */
export function slackText(event: Omit<ApprovalEvent, 'text'>): string {
  const a = event.approval;
  const call = `\`${esc(a.tool)}\`${a.request ? ` ${esc(a.request.method)} ${esc(a.request.path)}` : ''}`;
  const acts = a.acts === null ? '' : ` ${esc(a.acts.replace(/^acts /, ''))}`;
  const decision = event.decision;
  const why = decision?.reason ? `: ${esc(decision.reason)}` : '';
  const head: Record<ApprovalEventType, string> = {
    'approval.held': `:hourglass: *${esc(a.principal.subject)}*'s call waits for approval until ${clock(a.expiresAt)}: ${call}${acts}`,
    'approval.granted': `:white_check_mark: *${esc(decision?.by ?? '')}* granted ${esc(a.principal.subject)}'s call ${call}${acts}${why}`,
    'approval.rejected': `:no_entry: *${esc(decision?.by ?? '')}* rejected ${esc(a.principal.subject)}'s call ${call}${acts}${why}`,
    'approval.expired': `:zzz: Nobody decided ${esc(a.principal.subject)}'s call ${call}${acts}; it expired`,
  };
  const rule = event.type === 'approval.held' ? ` (rule ${esc(a.rule.id ?? 'none')}: ${esc(a.rule.reason)})` : '';
  const link = a.url === null ? ` (${a.id})` : ` <${a.url}|${a.id}>`;
  return `${head[event.type]}${rule}${link}`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** "09:14 UTC" of an ISO time (the date is the event's own). */
function clock(iso: string): string {
  return `${iso.slice(11, 16)} UTC`;
}

export const WITHHELD = '[WITHHELD]';

/**
 * The arguments with each value of the maps at `maps` (dotted paths) replaced by WITHHELD, their names kept; a
 * value already "[REDACTED]" stays so. The objects on the way to a map are copied, the record's own never changed.
 */
export function withheldValues(args: unknown, maps: readonly string[]): unknown {
  let out = args;
  for (const map of maps) out = withheldAt(out, map.split('.'));
  return out;
}

function withheldAt(value: unknown, path: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return path.length === 0 ? WITHHELD : value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (path.length === 0) setDataMember(copy, key, child === REDACTED ? REDACTED : WITHHELD);
    else setDataMember(copy, key, key === path[0] ? withheldAt(child, path.slice(1)) : child);
  }
  return copy;
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    // A record made before previews were kept as JSON (cut at 4 KiB): shown as the text it is.
    return json;
  }
}
