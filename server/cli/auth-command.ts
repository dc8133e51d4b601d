import type { Command } from 'commander';
import { hashToken } from '../auth/token-hash.js';

/** `mcp-devtools auth hash-token < token.txt`: the line to put in MCP_AUTH_TOKENS_FILE, never the token. */
export function registerAuth(program: Command): void {
  const auth = program.command('auth').description('inbound authentication helpers');
  auth
    .command('hash-token')
    .description('read a bearer token from stdin and print its SHA-256, for MCP_AUTH_TOKENS_FILE')
    .action(async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      // `echo token |` and files end with a newline that is not part of the token.
      const token = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, '');
      if (token.trim() === '' || /[\s]/.test(token)) {
        throw new Error('Pipe exactly one token on stdin, such as: printf %s "$TOKEN" | mcp-devtools auth hash-token (a token has no spaces or line breaks).');
      }
      process.stdout.write(`${hashToken(token)}\n`);
    });
}
