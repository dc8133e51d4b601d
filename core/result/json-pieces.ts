/**
 * About how many characters a piece holds: small enough that V8 allocates it in the young generation
 * (collected within milliseconds), where a whole rendering of a large value goes to the large-object space
 * and stays there, garbage, until the next full collection: that garbage was most of a spilled call's peak.
 */
export const PIECE_CHARS = 16 * 1024;

type Container = Record<string, unknown> | unknown[];

/**
 * `JSON.stringify(value, null, indent)` (`indent` 0 for compact) as consecutive pieces of about PIECE_CHARS
 * characters whose concatenation is exactly that text, made as they are consumed, so the whole text never
 * exists. Containers too big for one piece are walked here; everything else (a small subtree, a value with a
 * `toJSON`, a class instance) is written by JSON.stringify itself, so its rules (escapes, lone surrogates, -0,
 * undefined members) are its own. A piece never ends inside a surrogate pair. Yields nothing for a value
 * JSON.stringify turns into undefined.
 */
export function* jsonPieces(value: unknown, indent: 0 | 2 = 0): Generator<string, void, undefined> {
  const writer = new PieceWriter(indent);
  if (!isPlainContainer(value) || estimatedChars(value, indent, PIECE_CHARS) < PIECE_CHARS) {
    const whole = JSON.stringify(value, null, indent);
    if (whole !== undefined) yield whole;
    return;
  }
  yield* writer.container(value, 0);
  if (writer.pending !== '') yield writer.pending;
}

/** Whether JSON.stringify would walk `value` as a plain array or object (no toJSON, no class): the ones walked here. */
export function isPlainContainer(value: unknown): value is Container {
  if (value === null || typeof value !== 'object') return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

class PieceWriter {
  pending = '';
  private readonly pads: string[] = [''];
  private readonly ancestors = new Set<object>();

  constructor(private readonly indent: 0 | 2) {}

  /** A container too big for one piece: its members one by one, the big ones walked in turn. */
  *container(node: Container, depth: number): Generator<string, void, undefined> {
    if (this.ancestors.has(node)) throw new TypeError('Converting circular structure to JSON');
    this.ancestors.add(node);
    const array = Array.isArray(node);
    const inner = this.indent === 0 ? '' : `\n${this.pad(depth + 1)}`;
    let written = 0;
    this.pending += array ? '[' : '{';
    const keys = array ? undefined : Object.keys(node);
    const count = array ? node.length : keys!.length;
    for (let i = 0; i < count; i++) {
      const key = keys?.[i];
      const member = array ? node[i] : (node as Record<string, unknown>)[key!];
      const label = key === undefined ? '' : JSON.stringify(key) + (this.indent === 0 ? ':' : ': ');
      const size = estimatedChars(member, this.indent, PIECE_CHARS);
      if (isPlainContainer(member) && size >= PIECE_CHARS) {
        this.pending += (written++ === 0 ? '' : ',') + inner + label;
        yield* this.container(member, depth + 1);
      } else if (array && inRuns(member)) {
        // Small elements in a row are written by one JSON.stringify of their slice, as much as fills the piece:
        // one call per piece instead of one per element, which cost half as much again as the whole stringify.
        let end = i + 1;
        let left = PIECE_CHARS - this.pending.length - size;
        while (end < count && left > 0 && inRuns(node[end])) {
          const next = estimatedChars(node[end], this.indent, left);
          if (next >= left) break;
          left -= next;
          end++;
        }
        this.pending += (written === 0 ? '' : ',') + this.elements(node.slice(i, end), depth);
        written += end - i;
        i = end - 1;
      } else {
        const text = this.member(member, depth + 1);
        if (text === undefined && !array) continue; // JSON.stringify leaves such members out of an object
        this.pending += (written++ === 0 ? '' : ',') + inner + label + (text ?? 'null');
      }
      if (this.pending.length >= PIECE_CHARS) {
        yield this.pending;
        this.pending = '';
      }
    }
    if (written > 0 && this.indent !== 0) this.pending += `\n${this.pad(depth)}`;
    this.pending += array ? ']' : '}';
    this.ancestors.delete(node);
  }

  /** A member written by JSON.stringify, its lines indented to `depth` (a JSON text has newlines only between tokens). */
  private member(value: unknown, depth: number): string | undefined {
    if (isPlainContainer(value)) return this.stringifyAt(value, depth);
    // A primitive has no newline; a value with a toJSON is called with its own key, as JSON.stringify of it alone.
    const text = JSON.stringify(value, null, this.indent);
    if (text === undefined || this.indent === 0 || !text.includes('\n')) return text;
    return text.replaceAll('\n', `\n${this.pad(depth)}`);
  }

  /** The elements of `slice`, an array at `depth`, as its text without the brackets: each after its newline and indentation. */
  private elements(slice: unknown[], depth: number): string {
    const text = this.stringifyAt(slice, depth);
    return text.slice(1, text.length - (this.indent === 0 ? 1 : 2 + this.indent * depth));
  }

  /**
   * JSON.stringify of a plain container whose text starts at `depth`. JSON.stringify indents from the left margin,
   * so the value is stringified nested in `depth` one-element arrays, which indents its lines for their place, and
   * the wrappers' text is cut off (a slice, not a copy). Replacing each newline of the value's own text instead
   * cost as much again as the stringify itself, and made as much garbage.
   */
  private stringifyAt(value: Container, depth: number): string {
    if (this.indent === 0 || depth === 0) return JSON.stringify(value, null, this.indent);
    let wrapped: unknown = value;
    for (let d = 0; d < depth; d++) wrapped = [wrapped];
    const text = JSON.stringify(wrapped, null, this.indent);
    // Before the value, each wrapper's "[", a newline and its inner indentation; after it, each one's newline,
    // outer indentation and "]".
    const before = 2 * depth + (this.indent * depth * (depth + 1)) / 2;
    const after = 2 * depth + (this.indent * depth * (depth - 1)) / 2;
    return text.slice(before, text.length - after);
  }

  private pad(depth: number): string {
    return (this.pads[depth] ??= ' '.repeat(this.indent * depth));
  }
}

/**
 * Elements that can be written in a run (one JSON.stringify of a slice of their array): primitives and plain
 * containers. A value with a toJSON is called with its key, which in a slice would be its index in the slice.
 */
function inRuns(value: unknown): boolean {
  return value === null || typeof value !== 'object' || isPlainContainer(value);
}

/**
 * About how many characters `value` writes to (string lengths, and a few characters for each member and its
 * indentation): a walk that stops as soon as its estimate reaches `limit`, returning that much or more.
 */
function estimatedChars(value: unknown, indent: number, limit: number): number {
  let used = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') used += node.length + 2;
    else if (node !== null && typeof node === 'object') {
      used += 2;
      if (Array.isArray(node)) {
        used += node.length * (2 + indent);
        for (let i = 0; i < node.length && used < limit; i++) stack.push(node[i]);
      } else {
        for (const key in node) {
          if (!Object.hasOwn(node, key)) continue;
          used += key.length + 4 + indent;
          stack.push((node as Record<string, unknown>)[key]);
          if (used >= limit) break;
        }
      }
    } else used += 8;
    if (used >= limit) return used;
  }
  return used;
}
