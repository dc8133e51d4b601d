import type { IncomingMessage } from 'node:http';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WatchedFile } from '../../core/config/watched-file.js';
import { StartupError } from '../../core/errors/tool-error.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Principal } from '../../core/identity/principal.js';
import { InvalidDocumentError } from '../../core/schema/yaml-document.js';
import { bearerToken, type AuthOutcome, type Authenticator } from './authenticator.js';
import { hashToken } from './token-hash.js';
import { readTokensFile } from './tokens-file.js';

/**
 * `MCP_AUTH_MODE=tokens`: bearer tokens looked up by their SHA-256 in MCP_AUTH_TOKENS_FILE. The file is
 * reloaded when it changes, so a token is issued or revoked without a restart; an invalid new version is
 * logged and the last good one stays in force. A file that cannot be read at all (deleted, made unreadable)
 * fails closed: no token is accepted until it can be read again, so deleting it revokes every token.
 */
export class TokenAuthenticator implements Authenticator {
  readonly mode = 'tokens';
  private readonly watched: WatchedFile;

  private constructor(
    private principals: Map<string, Principal>,
    path: string,
    text: string,
    private readonly logger: Logger,
  ) {
    this.watched = new WatchedFile(path, text, {
      onChange: (next) => this.reload(path, next),
      onReadError: (error) => {
        this.principals = new Map();
        logger.error({ file: path, err: error.message }, 'tokens file cannot be read; no bearer token is accepted until it can be read again');
      },
    });
    this.watched.start();
  }

  static async open(file: string, logger: Logger): Promise<TokenAuthenticator> {
    if (file === '') throw new StartupError('MCP_AUTH_MODE=tokens needs MCP_AUTH_TOKENS_FILE: a YAML or JSON file of {tokens: [{sha256, subject, groups}]}.');
    const path = resolve(file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new StartupError(`MCP_AUTH_TOKENS_FILE=${path} cannot be read: ${(error as Error).message}`);
    }
    try {
      const principals = readTokensFile(text, path);
      logger.info({ file: path, tokens: principals.size }, 'bearer tokens loaded');
      return new TokenAuthenticator(principals, path, text, logger);
    } catch (error) {
      throw new StartupError(`MCP_AUTH_TOKENS_FILE is invalid:\n${(error as Error).message}`);
    }
  }

  async authenticate(request: IncomingMessage): Promise<AuthOutcome> {
    const bearer = bearerToken(request);
    if (!('token' in bearer)) return bearer;
    const principal = this.principals.get(hashToken(bearer.token));
    return principal === undefined ? { failure: 'the bearer token is not recognised.' } : { principal };
  }

  async principalOfTokenHash(sha256: string): Promise<Principal | undefined> {
    await this.check();
    return this.principals.get(sha256.toLowerCase());
  }

  /** Re-reads the file now; resolves once any reload is done. */
  check(): Promise<void> {
    return this.watched.check();
  }

  close(): void {
    this.watched.stop();
  }

  private reload(path: string, text: string): void {
    try {
      this.principals = readTokensFile(text, path);
      this.logger.info({ file: path, tokens: this.principals.size }, 'bearer tokens reloaded');
    } catch (error) {
      const problems = error instanceof InvalidDocumentError ? error.message : (error as Error).message;
      this.logger.error({ file: path, problems }, 'tokens file changed but is invalid; the last good tokens stay in force');
    }
  }
}
