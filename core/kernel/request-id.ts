/**
 * Request ids: what a caller sent, checked, or one made here. An id travels into log lines, the audit record, a
 * span and a header sent to the vendor, so only a short run of visible ASCII is taken as it came (anything else,
 * a line break above all, could forge a header or a log line): 1 to 128 characters from letters, digits and
 * `-_.:@/+=`. A caller's id that is not that is ignored and one is made, as if none had been sent.
 */
const ACCEPTED = /^[A-Za-z0-9\-_.:@/+=]{1,128}$/;

export function acceptedRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && ACCEPTED.test(value) ? value : undefined;
}

/** A new id: 32 lowercase hex digits, the shape of a trace id, so ids look alike wherever they came from. */
export function makeRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** W3C Trace Context: version, trace id, parent id, flags (a later version may add fields after them). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The trace id of a `traceparent` value, or undefined when it is not a valid one (version ff, an all-zero trace
 * or parent id, or fields after version 00's four are invalid, as the W3C recommendation says).
 */
export function traceIdOf(traceparent: unknown): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return traceId;
}
