/** Where each SecretText keeps its value: outside the object, so no walk of it (JSON, inspect, spread) finds it. */
const hidden = new WeakMap<SecretText, string>();
const SHOWN = '[secret]';

/**
 * A credential in memory (a linked account's access token, a refresh token, a PKCE verifier). Its value is
 * not a property: `JSON.stringify`, `String()`, template literals, `util.inspect`, `console.log`, object spread
 * and `structuredClone` all see `[secret]`. Only `reveal()` gives the value, at the one place that sends it.
 */
export class SecretText {
  constructor(value: string) {
    if (typeof value !== 'string' || value === '') throw new TypeError('A SecretText holds a non-empty string.');
    hidden.set(this, value);
  }

  /** The value itself: call it only where it leaves for the vendor (a header, a sealed record). */
  reveal(): string {
    return hidden.get(this)!;
  }

  /** Whether two secrets hold the same value, without revealing either to the caller. */
  equals(other: SecretText | undefined): boolean {
    return other !== undefined && hidden.get(this) === hidden.get(other);
  }

  toString(): string {
    return SHOWN;
  }

  toJSON(): string {
    return SHOWN;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretText(${SHOWN})`;
  }
}
