import { startsMappedBytes } from './mapped-bytes.js';

/**
 * The bytes of the big bodies a handler's requests read (parsed from their bytes, core/http/parse-json-bytes.ts),
 * handed back to the allocator as soon as the handler has returned its value. Nothing after the handler reads
 * them: the stages after it work on the parsed value, and the HTTP cache takes the text it stores before the
 * handler sees the response. Merely dropping the reference would not do: by the end of a read the Buffer sits in
 * V8's old generation, and its 16 MiB outside the heap stay resident beside the parsed value until the next full
 * collection, which comes only after the call, at the peak of render and spill. Detaching the ArrayBuffer (moved
 * into a clone that is garbage at once) lets the next young collection free them.
 */
export class HandledBodies {
  private readonly held: Buffer[] = [];

  /** Bytes to free once the handler returns; only a Buffer that owns its whole ArrayBuffer (no other view on it). */
  add(bytes: Buffer): void {
    if (ownsItsMemory(bytes)) this.held.push(bytes);
  }

  /** Frees what was added; each such Buffer is then empty (length 0). */
  release(): void {
    for (const bytes of this.held.splice(0)) freeBytes(bytes);
  }
}

/**
 * Hands a Buffer's memory back now (its ArrayBuffer detached: the Buffer is then empty), when the Buffer owns the
 * whole of it, or starts the room mappedBytes made for a body; a Buffer that shares its memory with other views
 * is left to the collector.
 */
export function freeBytes(bytes: Buffer): void {
  if (!ownsItsMemory(bytes)) return;
  try {
    structuredClone(bytes.buffer, { transfer: [bytes.buffer as ArrayBuffer] });
  } catch {
    // Not transferable (already detached): it is then freed, or left to the collector, as before.
  }
}

function ownsItsMemory(bytes: Buffer): boolean {
  if (startsMappedBytes(bytes)) return true;
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
}
