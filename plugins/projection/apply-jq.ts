import jmespath from 'jmespath';

/**
 * Applies a JMESPath expression the way the reference Atlassian servers do: an empty or blank expression
 * means none, and any failure (syntax or runtime) yields `{_jqError, _originalData}` instead of an error, so
 * the model sees both what went wrong and the data it can retry on.
 */
export function applyJq(data: unknown, expression: unknown): unknown {
  if (typeof expression !== 'string' || expression.trim() === '') return data;
  let result: unknown;
  try {
    result = jmespath.search(data as never, expression);
  } catch {
    return { _jqError: `Invalid JMESPath expression: ${expression}`, _originalData: data };
  }
  return toPlainJson(result);
}

/**
 * JMESPath libraries hand back inherited members (`constructor` yields a function). Nothing but plain JSON is
 * rendered or stored: a value JSON cannot hold becomes what JSON.stringify makes of it (dropped in objects,
 * null elsewhere).
 */
export function toPlainJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((v) => (isJsonable(v) ? toPlainJson(v) : null));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (isJsonable(v)) out[k] = toPlainJson(v);
    return out;
  }
  return null;
}

function isJsonable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}
