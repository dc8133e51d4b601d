import type { IncomingMessage } from 'node:http';
import { MAX_REASON_CHARS } from '../../plugins/policy/index.js';
import { readJsonBody } from '../transports/json-body.js';

const MAX_BODY_BYTES = 16 * 1024;

/** What a decision posted to the admin endpoint says: who decides, why, and for a bulk rejection whose calls. */
export interface DecisionBody {
  by: string;
  reason?: string;
  subject?: string;
  ids?: string[];
}

/**
 * The JSON body of a decision (`{"by": "olga", "reason": "..."}`; a bulk rejection adds `"subject"` and
 * optionally `"ids"`), or what is wrong with it. An empty body decides as "admin" with no reason.
 */
export async function readDecisionBody(request: IncomingMessage): Promise<DecisionBody | { problem: string }> {
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return { by: 'admin' };
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  const usage = `The body must be empty or JSON {"by": "<approver, up to 200 characters>", "reason": "<up to ${MAX_REASON_CHARS} characters>"}`;
  if (!body.ok || body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) return { problem: `${usage}.` };
  const fields = body.value as Record<string, unknown>;
  const by = fields.by === undefined ? 'admin' : fields.by;
  if (typeof by !== 'string' || by.trim() === '' || by.length > 200) return { problem: `${usage}: "by" is not a name.` };
  if (fields.reason !== undefined && typeof fields.reason !== 'string') return { problem: `${usage}: "reason" is not a string.` };
  if (fields.subject !== undefined && (typeof fields.subject !== 'string' || fields.subject === '')) return { problem: '"subject" must name the caller.' };
  if (fields.ids !== undefined && !(Array.isArray(fields.ids) && fields.ids.every((id) => typeof id === 'string')))
    return { problem: '"ids" must be a list of approval ids.' };
  return {
    by: by.trim(),
    ...(fields.reason === undefined ? {} : { reason: fields.reason as string }),
    ...(fields.subject === undefined ? {} : { subject: fields.subject as string }),
    ...(fields.ids === undefined ? {} : { ids: fields.ids as string[] }),
  };
}
