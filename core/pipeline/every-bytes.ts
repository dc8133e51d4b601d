/**
 * Runs an action once every so many bytes counted. The big-value stages pace their collections this way: the
 * body read (young collections freeing the network chunks already copied), the join of a chunked body's blocks
 * (young collections freeing the blocks already copied) and the artifact read-back (full collections, throttled).
 * Counting bytes rather than chunks keeps the pace the same whatever size the chunks come in.
 */
export class EveryBytes {
  private counted = 0;

  constructor(
    private readonly every: number,
    private readonly action: () => void,
  ) {}

  count(bytes: number): void {
    this.counted += bytes;
    if (this.counted < this.every) return;
    this.counted = 0;
    this.action();
  }
}
