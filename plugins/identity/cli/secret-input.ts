import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * One line from stdin, for a secret: at a terminal the prompt is shown and what is typed is not echoed; piped,
 * the first line is read. Never from an argument (shell history, the process list).
 */
export async function readSecretLine(prompt: string): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write(prompt);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: muted, terminal });
  try {
    for await (const line of lines) return line.trim();
    return '';
  } finally {
    lines.close();
    if (terminal) process.stderr.write('\n');
  }
}
