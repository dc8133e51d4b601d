import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Secrets shorter than this are not looked for: a test's "x" or "tok" would match ordinary text everywhere. */
const MIN_CANARY_LENGTH = 8;
/** A store value that looks like this is base64 (artifact chunks): it is decoded and scanned too. */
const BASE64 = /^[A-Za-z0-9+/]{12,}={0,2}$/;
/** Base64 runs inside a file (artifact chunks in a SQLite page): decoded and scanned as well. */
const BASE64_RUNS = /[A-Za-z0-9+/]{16,}={0,2}/g;

export interface Leak {
  /** Which canary, by its first characters only: the report itself must not print a whole secret. */
  canary: string;
  /** Where it was found: `result of github_get`, `log line`, `store write artifact-chunk`, a file path. */
  where: string;
}

export interface LeakFigures {
  canaries: number;
  results: number;
  logLines: number;
  storeWrites: number;
  transcripts: number;
  files: number;
  fileBytes: number;
}

/**
 * The one collector of the suite-wide secret check. Tests (and the taps on every in-process kernel) hand it
 * the secrets in use and everything a caller, an operator or a disk could see; each piece is scanned as it
 * arrives, so nothing is kept in memory but the findings. Files (raw response folders, audit logs, SQLite
 * stores) are scanned once, after the whole suite, since a server may still write them until it closes.
 */
class LeakAudit {
  private readonly canaries = new Set<string>();
  private readonly paths = new Set<string>();
  private readonly leaks: Leak[] = [];
  private readonly figures: LeakFigures = { canaries: 0, results: 0, logLines: 0, storeWrites: 0, transcripts: 0, files: 0, fileBytes: 0 };

  /** Secrets that must never appear anywhere; shorter ones than 8 characters are ignored. */
  addCanaries(values: Iterable<string>): void {
    for (const value of values) {
      if (value.length < MIN_CANARY_LENGTH) continue;
      this.canaries.add(value);
      // The forms a secret takes when it is carried rather than shown: URL-encoded, JSON-escaped.
      for (const form of [encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]) if (form !== value) this.canaries.add(form);
    }
    this.figures.canaries = this.canaries.size;
  }

  /** A file or folder to scan after the suite (folders: every file below, recursively). */
  watchPath(path: string): void {
    if (path !== '') this.paths.add(path);
  }

  result(tool: string, result: unknown): void {
    this.figures.results++;
    this.scan(`result of ${tool}`, JSON.stringify(result));
  }

  logLine(line: string): void {
    this.figures.logLines++;
    this.scan('log line', line);
  }

  /** What a child server wrote and answered (stderr lines, JSON-RPC responses), as its test captured it. */
  transcript(where: string, text: string): void {
    this.figures.transcripts++;
    this.scan(where, text);
  }

  storeWrite(namespace: string, value: unknown): void {
    this.figures.storeWrites++;
    const where = `store write ${namespace}`;
    if (typeof value === 'string') {
      this.scan(where, value);
      if (BASE64.test(value) && value.length % 4 === 0) this.scan(`${where} (base64-decoded)`, Buffer.from(value, 'base64').toString('utf8'));
    } else {
      this.scan(where, JSON.stringify(value) ?? '');
    }
  }

  /** Scans every watched path now; returns the findings of the whole suite so far. */
  finish(forget = false): { leaks: Leak[]; figures: LeakFigures } {
    for (const path of this.paths) this.scanPath(path);
    // A parallel worker audits after each of its files: the paths read now are not read again after the next.
    if (forget) this.paths.clear();
    return { leaks: [...this.leaks], figures: { ...this.figures } };
  }

  private scanPath(path: string): void {
    let info;
    try {
      info = statSync(path);
    } catch {
      return; // never written (no truncated result, no audit log): nothing to leak
    }
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) this.scanPath(join(path, name));
      return;
    }
    const bytes = readFileSync(path);
    this.figures.files++;
    this.figures.fileBytes += bytes.length;
    // latin1 keeps every byte as one character, so a secret inside a binary file (SQLite pages) is still found.
    const text = bytes.toString('latin1');
    this.scan(path, text);
    for (const [run] of text.matchAll(BASE64_RUNS)) this.scan(`${path} (base64-decoded)`, Buffer.from(run, 'base64').toString('latin1'));
  }

  private scan(where: string, text: string): void {
    for (const canary of this.canaries) {
      if (text.includes(canary)) this.leaks.push({ canary: `${canary.slice(0, 6)}...`, where });
    }
  }
}

/** The collector of this test process (mocha runs every test file in one process). */
export const leakAudit = new LeakAudit();
