/**
 * The one byte range a `Range` header asks of a resource of `size` bytes (RFC 9110 14.2), inclusive:
 * `bytes=0-499`, `bytes=500-` (to the end), `bytes=-500` (the last 500). Undefined means "send it whole": no
 * header, another unit, several ranges or a malformed one, all of which a server may ignore. `unsatisfiable`
 * is a range that starts past the end (answered 416).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}
