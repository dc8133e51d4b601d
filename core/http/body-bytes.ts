/**
 * A response body gathered as it arrives. When the body declared its length (Content-Length), its bytes go
 * straight into one buffer of that length, so each network chunk is garbage as soon as it is copied and the
 * body is never held twice (chunks, then their concatenation). A body of unknown length, or one that sends more
 * than it declared, is kept as its chunks and joined once at the end.
 */
export class BodyBytes {
  private declared: Buffer | undefined;
  private chunks: Buffer[] = [];
  total = 0;

  constructor(declaredBytes?: number) {
    if (declaredBytes !== undefined) this.declared = Buffer.allocUnsafe(declaredBytes);
  }

  add(chunk: Buffer): void {
    if (this.declared !== undefined) {
      if (this.total + chunk.byteLength <= this.declared.length) {
        chunk.copy(this.declared, this.total);
        this.total += chunk.byteLength;
        return;
      }
      // More than declared: what came so far becomes the first chunk, the rest is gathered as chunks.
      this.chunks.push(this.declared.subarray(0, this.total));
      this.declared = undefined;
    }
    this.chunks.push(chunk);
    this.total += chunk.byteLength;
  }

  /** The body in one Buffer. */
  whole(): Buffer {
    if (this.declared !== undefined) return this.total === this.declared.length ? this.declared : this.declared.subarray(0, this.total);
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
  }
}
