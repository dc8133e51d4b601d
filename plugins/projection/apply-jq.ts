import { ToolError } from '../../core/errors/tool-error.js';
import { boundedSearch, ProjectionTooLarge } from './bounded-jmespath.js';
import { setDataMember } from '../../core/result/data-member.js';
import { jqFailure } from './jq-failure.js';

/** The longest `jq` expression accepted: far above any real projection, far below what parsing can choke on. */
export const MAX_JQ_CHARS = 2000;

/** How the projected value will be rendered: it decides what becomes of values JSON cannot hold. */
export type PlainJsonMode = 'toon' | 'json';

/**
 * How a failed expression answers: as the reference Atlassian servers do, `{_jqError, _originalData}` (the whole
 * answer beside the error: the passthroughs whose text matches theirs byte for byte), or `{_jqError, reason,
 * nearestPaths, topLevelKeys}` (jq-failure.ts: where to look, not the data again; every other tool).
 */
export type JqFailureShape = 'reference' | 'hints';

/**
 * Applies a JMESPath expression: an empty or blank expression means none, and any failure (syntax or runtime)
 * is a result, not an error, that says what went wrong so that the model retries with a corrected expression
 * (`failure` decides its shape). Two things are errors instead, since no retry on the same data can help: an
 * expression over MAX_JQ_CHARS (`invalid_jq`), and one that would produce more than its budget or run past its
 * deadline (`projection_too_large`, see bounded-jmespath.ts).
 */
export function applyJq(data: unknown, expression: unknown, mode: PlainJsonMode = 'json', failure: JqFailureShape = 'hints'): unknown {
  if (typeof expression !== 'string' || expression.trim() === '') return data;
  if (expression.length > MAX_JQ_CHARS) {
    throw new ToolError(
      'invalid_jq',
      `The jq expression is ${expression.length} characters long; the limit is ${MAX_JQ_CHARS}. Select fewer fields, or split the projection into simpler ones.`,
    );
  }
  let result: unknown;
  try {
    result = boundedSearch(data, expression);
  } catch (error) {
    if (error instanceof ProjectionTooLarge) {
      throw new ToolError(
        'projection_too_large',
        `The jq expression was stopped: ${error.message}. Select less: pick fields rather than repeat values (\`[@,@]\` doubles the data at each step).`,
      );
    }
    if (failure === 'reference') return { _jqError: `Invalid JMESPath expression: ${expression}`, _originalData: data };
    return jqFailure(data, expression, error);
  }
  return toPlainJson(result, mode);
}

/**
 * JMESPath libraries hand back inherited members (`constructor` yields a function, `__proto__` the prototype).
 * Nothing but plain JSON is rendered or stored, and a value JSON cannot hold becomes what the renderer would
 * have made of it, so the text is unchanged: TOON shows it as null (keys kept), JSON.stringify drops it from
 * objects and writes null in arrays. Non-finite numbers are null in both.
 */
export function toPlainJson(value: unknown, mode: PlainJsonMode = 'json'): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((v) => (isJsonable(v) ? toPlainJson(v, mode) : null));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!isJsonable(v) && mode === 'json') continue;
      // A data member, never the prototype: a "__proto__" key of the upstream body is data and must stay a key.
      setDataMember(out, k, isJsonable(v) ? toPlainJson(v, mode) : null);
    }
    return out;
  }
  return null;
}

function isJsonable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}
