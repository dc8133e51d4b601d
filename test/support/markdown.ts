import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** A fenced code block of a Markdown file: its language and text, and the line it starts on. */
export interface CodeBlock {
  lang: string;
  code: string;
  line: number;
}

export function readDoc(file: string): string {
  return readFileSync(join(REPO_ROOT, file), 'utf8');
}

/** The documentation pages: every docs/*.md, as paths from the repository root. */
export function docsFiles(): string[] {
  return readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
}

/** Every fenced code block of a Markdown text, in order. */
export function codeBlocks(text: string): CodeBlock[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({
    lang: m[1]!,
    code: m[2]!,
    line: text.slice(0, m.index).split('\n').length,
  }));
}

/** The text of a section, from its heading to the next heading of the same or a higher level. */
export function section(text: string, heading: string): string {
  const start = text.search(new RegExp(`^#+ ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = /^#+/.exec(text.slice(start))![0].length;
  const rest = text.slice(start + level);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? text.slice(start) : text.slice(start, start + level + end);
}

/** The lines of a shell block as commands: comments after `#` and blank lines dropped. */
export function commandLines(code: string): Array<{ command: string; comment: string }> {
  return code
    .split('\n')
    .map((line) => {
      const at = line.search(/\s#\s/);
      return at < 0
        ? { command: line.trim(), comment: '' }
        : {
            command: line.slice(0, at).trim(),
            comment: line
              .slice(at)
              .replace(/^\s*#\s*/, '')
              .trim(),
          };
    })
    .filter((l) => l.command !== '');
}

/**
 * Shell words of one command line, as POSIX sh splits them without expansions: single and double quotes, and
 * backslashes outside single quotes.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The samples that show a command and what it printed: blocks whose first line is `$ command` (continued with a
 * trailing backslash), each command followed by its output up to the next `$ ` line.
 */
export function terminalSamples(text: string): Array<{ command: string; output: string; line: number }> {
  const samples: Array<{ command: string; output: string; line: number }> = [];
  for (const block of codeBlocks(text)) {
    if (!block.code.startsWith('$ ')) continue;
    const lines = block.code.split('\n');
    for (let i = 0; i < lines.length;) {
      let command = lines[i]!.slice(2);
      while (command.endsWith('\\')) command = `${command.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
      const output: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('$ '); i++) output.push(lines[i]!);
      samples.push({ command, output: output.join('\n'), line: block.line });
    }
  }
  return samples;
}
