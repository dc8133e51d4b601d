import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_TEXT_CHARS } from '../../core/result/text-limit.js';
import { writeUtf8Now } from '../../plugins/truncation/raw-response-files.js';
import { since } from './stats.js';

/** The start of the name of the folder a run's contract files go to, in the temporary folder. */
export const CONTRACT_FOLDER_PREFIX = 'mcp-devtools-contract-';

export interface ContractSample {
  /** Milliseconds of `JSON.stringify(value, null, 2)`. */
  render: number;
  /** Milliseconds to write that text to a new owner-only file; 0 when the text is not cut, so needs none. */
  file: number;
}

/**
 * What the Atlassian tools' byte-for-byte contract asks of any server for jira_get with outputFormat json and
 * no jq, beyond issue 18's floor: the reference's text, `JSON.stringify(value, null, 2)`, and, when that text is
 * over the 40,000 characters shown to the model, the whole of it in a new owner-only file, written before the
 * truncation notice names it. Timed here in the benchmark's process with V8's own stringify and the file written
 * the cheapest way found here (ours: UTF-8 encoded into one reused 64 KB buffer, written as it fills; one
 * Buffer.from and one write took 3-4x as long, 0.42 against 0.11 ms for a 100 KB page), in a folder on the file
 * system the servers' files go to by default. The floor with the longer of the two added is the least a call of
 * a server keeping the contract can take, as issue 18 counts the floor (per-call.ts): it leaves out everything
 * else a call does (the cut, the answer's larger message, scrubbing).
 * Each file is removed once timed, so that none is written back to the disk: a bound may err on the cheap side,
 * and kept, the files of one size's samples, written back to back, piled up dirty pages that the kernel then
 * wrote back in a burst. At 1 MiB a file took 6.55 ms, more than the whole of our call above the floor (4.82).
 */
export class ContractWork {
  private readonly dir = mkdtempSync(join(tmpdir(), CONTRACT_FOLDER_PREFIX));
  private files = 0;

  /** Where the files are written (each removed once timed; the folder at `close`). */
  get folder(): string {
    return this.dir;
  }

  once(value: unknown): ContractSample {
    const started = performance.now();
    const text = JSON.stringify(value, null, 2);
    const render = since(started);
    if (text.length <= MAX_TEXT_CHARS) return { render, file: 0 };
    const writing = performance.now();
    const path = join(this.dir, `raw-${++this.files}.txt`);
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeUtf8Now(fd, text);
    } finally {
      closeSync(fd);
    }
    const file = since(writing);
    unlinkSync(path);
    return { render, file };
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
