import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WatchedFile } from '../../core/config/watched-file.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import { InvalidDocumentError } from '../../core/schema/yaml-document.js';
import { readPolicyDocument } from './document/policy-document.js';
import { PolicyEngine } from './engine/policy-engine.js';

/** How long a policy file must read the same before it is taken: an editor or a deploy may be writing it. */
export const STABLE_READ_MS = 100;
const STABLE_READ_ATTEMPTS = 50;

/**
 * The file's text once two reads STABLE_READ_MS apart agree (`first`: a read already made), so a file caught
 * half-written is never taken for the whole. Throws when it keeps changing for seconds.
 */
export async function readStable(path: string, first?: string): Promise<string> {
  let previous = first ?? (await readFile(path, 'utf8'));
  for (let i = 0; i < STABLE_READ_ATTEMPTS; i++) {
    await new Promise((resolve) => setTimeout(resolve, STABLE_READ_MS));
    const next = await readFile(path, 'utf8');
    if (next === previous) return next;
    previous = next;
  }
  throw new Error(`it kept changing for ${(STABLE_READ_ATTEMPTS * STABLE_READ_MS) / 1000} s`);
}

/** Reads (stably) and compiles a policy file; an invalid one throws InvalidDocumentError naming the lines. */
export async function loadPolicyFile(path: string): Promise<{ engine: PolicyEngine; text: string }> {
  const text = await readStable(path);
  return { engine: new PolicyEngine(readPolicyDocument(text, path)), text };
}

/**
 * The policy in force: loaded at start-up (an invalid document refuses the start, naming the line), then
 * reloaded whenever the file changes, once it has stopped changing. An invalid or unreadable new version is
 * logged with its problems and the last good policy stays in force, so a typo never opens or closes everything.
 */
export class PolicySource {
  private engine: PolicyEngine;
  private watched: WatchedFile | undefined;

  private constructor(
    readonly path: string,
    loaded: { engine: PolicyEngine; text: string },
    private readonly logger: Logger,
  ) {
    this.engine = loaded.engine;
    this.watched = new WatchedFile(path, loaded.text, {
      onChange: (text) => this.reload(text),
      onReadError: (error) => this.logger.error({ file: path, err: error.message }, 'policy file cannot be read; the last good policy stays in force'),
    });
  }

  static async open(file: string, cwd: string, logger: Logger): Promise<PolicySource> {
    const path = resolve(cwd, file);
    let loaded: { engine: PolicyEngine; text: string };
    try {
      loaded = await loadPolicyFile(path);
    } catch (error) {
      if (error instanceof InvalidDocumentError) throw new StartupError(`MCP_POLICY_FILE is invalid:\n${error.message}`);
      throw new StartupError(`MCP_POLICY_FILE=${path} cannot be read: ${(error as Error).message}`);
    }
    logger.info({ file: path, version: loaded.engine.version, rules: loaded.engine.policy.document.rules.length }, 'policy loaded');
    return new PolicySource(path, loaded, logger);
  }

  get current(): PolicyEngine {
    return this.engine;
  }

  start(): void {
    this.watched?.start();
  }

  stop(): void {
    this.watched?.stop();
    this.watched = undefined;
  }

  /** Re-reads the file now (tests, and a SIGHUP-style nudge); resolves once any reload is done. */
  async check(): Promise<void> {
    await this.watched?.check();
  }

  /** Takes a new version only once it reads the same twice, parses and validates: only then is it swapped in. */
  private async reload(changed: string): Promise<void> {
    let engine: PolicyEngine;
    try {
      const text = await readStable(this.path, changed);
      engine = new PolicyEngine(readPolicyDocument(text, this.path));
    } catch (error) {
      const problems = error instanceof InvalidDocumentError ? error.message : (error as Error).message;
      this.logger.error({ file: this.path, problems, version: this.engine.version }, 'policy file changed but is invalid; the last good policy stays in force');
      return;
    }
    if (engine.version === this.engine.version) return;
    this.logger.info({ file: this.path, from: this.engine.version, version: engine.version, rules: engine.policy.document.rules.length }, 'policy reloaded');
    this.engine = engine;
  }
}
