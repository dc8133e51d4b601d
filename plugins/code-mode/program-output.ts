import type { ArtifactStore } from '../../core/artifacts/artifact-store.js';
import type { Principal } from '../../core/identity/principal.js';
import { limitStop } from './sandbox/program-stop.js';

/**
 * What a program prints, kept up to `maxBytes` in all (past it the program is stopped): the execute result shows
 * the first `inlineBytes` of it, and the whole goes to an artifact when it is longer.
 */
export class ProgramOutput {
  private readonly lines: string[] = [];
  private bytes = 0;

  constructor(
    private readonly inlineBytes: number,
    private readonly maxBytes: number,
  ) {}

  print(line: string): void {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (this.bytes + size > this.maxBytes) throw limitStop.printed(this.maxBytes);
    this.bytes += size;
    this.lines.push(line);
  }

  /** The printed lines, then the returned value's JSON (when it returned one). */
  text(returnedJson?: string): string {
    const printed = this.lines.join('\n');
    if (returnedJson === undefined || returnedJson === '') return printed;
    return `${printed}${printed === '' ? '' : '\n'}Returned: ${returnedJson}`;
  }

  /**
   * The text the result carries: whole when within `inlineBytes`; else its head, cut on a character boundary,
   * and a line naming the artifact that holds the whole (or saying it could not be saved).
   */
  async bounded(text: string, owner: Principal, artifacts: ArtifactStore | undefined): Promise<{ text: string; artifactId?: string }> {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= this.inlineBytes) return { text };
    let head = Buffer.from(text, 'utf8').subarray(0, this.inlineBytes).toString('utf8');
    if (head.endsWith('\uFFFD')) head = head.slice(0, -1);
    const saved = artifacts === undefined ? undefined : await artifacts.save(owner, 'text/plain; charset=utf-8', text).catch(() => undefined);
    const where =
      saved === undefined
        ? 'the rest could not be saved: print less'
        : `the whole output is artifact ${saved.artifactId}: read it with artifact_read (encoding "utf8")`;
    return {
      text: `${head}\n... (output cut at ${this.inlineBytes} of ${bytes} bytes (MCP_CODE_OUTPUT_BYTES); ${where})`,
      ...(saved && { artifactId: saved.artifactId }),
    };
  }
}
