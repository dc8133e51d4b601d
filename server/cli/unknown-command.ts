import type { Command } from 'commander';
import { didYouMean } from '../../core/text/nearest-names.js';

/** The error for a word that is not a command: the nearest commands, and all of them. */
export function unknownCommand(word: string, program: Command): Error {
  const names = program.commands.map((c) => c.name());
  return new Error(`unknown command "${word}".${didYouMean(word, names)} Commands: ${names.join(', ')} (mcp-devtools --help says what each does).`);
}
