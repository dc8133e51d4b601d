import { encode } from '@toon-format/toon';

export type OutputFormat = 'toon' | 'json';

/**
 * The one renderer of every vendor: TOON 2.3.1 with `{indent: 2}` by default, pretty JSON on request. Neither
 * ends with a newline. If TOON cannot encode a value, JSON is shown instead (as the reference servers do).
 */
export function renderValue(value: unknown, format: unknown): string {
  const json = (): string => JSON.stringify(value, null, 2) ?? 'null';
  if (format === 'json') return json();
  try {
    return encode(value, { indent: 2 });
  } catch {
    return json();
  }
}
