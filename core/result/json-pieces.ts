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
  if (!isPlainContainer(value) || fitsOnePiece(value, indent)) {
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
      if (isPlainContainer(member) && !fitsOnePiece(member, this.indent)) {
        this.pending += (written++ === 0 ? '' : ',') + inner + label;
        yield* this.container(member, depth + 1);
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
    const text = JSON.stringify(value, null, this.indent);
    if (text === undefined || this.indent === 0 || !text.includes('\n')) return text;
    return text.replaceAll('\n', `\n${this.pad(depth)}`);
  }

  private pad(depth: number): string {
    return (this.pads[depth] ??= ' '.repeat(this.indent * depth));
  }
}

/**
 * Whether `value` certainly writes to less than a piece: a walk that stops as soon as its estimate (string
 * lengths, and a few characters for each member and its indentation) passes PIECE_CHARS.
 */
function fitsOnePiece(value: unknown, indent: number): boolean {
  let left = PIECE_CHARS;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') left -= node.length + 2;
    else if (node !== null && typeof node === 'object') {
      left -= 2;
      if (Array.isArray(node)) {
        left -= node.length * (2 + indent);
        for (let i = 0; i < node.length && left > 0; i++) stack.push(node[i]);
      } else {
        for (const key in node) {
          if (!Object.hasOwn(node, key)) continue;
          left -= key.length + 4 + indent;
          stack.push((node as Record<string, unknown>)[key]);
          if (left <= 0) break;
        }
      }
    } else left -= 8;
    if (left <= 0) return false;
  }
  return true;
}
