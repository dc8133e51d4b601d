import type { RouteRequest } from '../../../core/plugin/contributions.js';
import { MAX_REASON_CHARS } from '../approvals/approval-record.js';

const MAX_BODY_BYTES = 16 * 1024;

/** What a decision posted to the admin endpoint says: why, and for a bulk rejection whose calls. Never who decides. */
export interface DecisionBody {
  reason?: string;
  subject?: string;
  ids?: string[];
}

/**
 * The JSON body of a decision (`{"reason": "..."}`; a bulk rejection adds `"subject"` and optionally `"ids"`), or
 * what is wrong with it. An empty body is a decision with no reason. A `"by"` is refused: the approver is the
 * principal of the request's bearer token, never a name someone typed.
 */
export async function readDecisionBody(request: RouteRequest): Promise<DecisionBody | { problem: string }> {
  const length = request.raw.headers['content-length'];
  if ((length === undefined || length === '0') && request.raw.headers['transfer-encoding'] === undefined) return {};
  const body = await request.readJson(MAX_BODY_BYTES);
  const usage = `The body must be empty or JSON {"reason": "<up to ${MAX_REASON_CHARS} characters>"}`;
  if (!body.ok || body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) return { problem: `${usage}.` };
  const fields = body.value as Record<string, unknown>;
  if (fields.by !== undefined)
    return {
      problem: '"by" is not taken: the server decides as the principal of your bearer token, so send the approver\'s own token instead of naming them.',
    };
  if (fields.reason !== undefined && typeof fields.reason !== 'string') return { problem: `${usage}: "reason" is not a string.` };
  if (fields.subject !== undefined && (typeof fields.subject !== 'string' || fields.subject === '')) return { problem: '"subject" must name the caller.' };
  if (fields.ids !== undefined && !(Array.isArray(fields.ids) && fields.ids.every((id) => typeof id === 'string')))
    return { problem: '"ids" must be a list of approval ids.' };
  return {
    ...(fields.reason === undefined ? {} : { reason: fields.reason as string }),
    ...(fields.subject === undefined ? {} : { subject: fields.subject as string }),
    ...(fields.ids === undefined ? {} : { ids: fields.ids as string[] }),
  };
}
