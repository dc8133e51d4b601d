import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type * as TS from 'typescript';
import { ToolError } from '../../core/errors/tool-error.js';

const DIR = '/sandbox';
const DECLARATIONS = `${DIR}/tools.d.ts`;
const PROGRAM = `${DIR}/program.ts`;

/**
 * A program is the body of an async function, so it may `await` and `return` at its top level. This line comes
 * first, which is why positions are shifted back by one line.
 */
const HEADER = 'async function __program__() {\n';
const FOOTER = '\n}\n__program__();\n';

type TypeScript = typeof TS;
let typescript: Promise<TypeScript> | undefined;

/** The TypeScript compiler, loaded by the first program (several MB: a server that never runs one never loads it). */
function loadTypeScript(): Promise<TypeScript> {
  typescript ??= import('typescript').then((m) => ((m as unknown as { default?: TypeScript }).default ?? m) as TypeScript);
  return typescript;
}

/** What a program compiles against: the declarations of the tools it may call. */
export interface CompileTarget {
  readonly declarations: string;
  readonly typeCheck: boolean;
}

/** The declarations' hash, kept for the last file seen: a server's callers mostly reach the same tools. */
let lastHashed: { text: string; hash: string } | undefined;
function hashOf(declarations: string): string {
  if (lastHashed?.text !== declarations) lastHashed = { text: declarations, hash: createHash('sha256').update(declarations).digest('hex') };
  return lastHashed.hash;
}

const MAX_CACHED = 200;
/** Compiled programs by source and declarations: a program run again (after a grant) is not compiled again. */
const compiled = new Map<string, string>();

/**
 * Turns a program (TypeScript or JavaScript) into the script the sandbox evaluates, whose completion value is
 * the program's promise. A syntax error, or with type checking a type error, throws `program_invalid` naming
 * each problem's line and column in the program as written; the program is then not run.
 */
export async function compileProgram(source: string, target: CompileTarget): Promise<string> {
  const key = createHash('sha256').update(source).update('\0').update(hashOf(target.declarations)).update(String(target.typeCheck)).digest('hex');
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  const ts = await loadTypeScript();
  const wrapped = `${HEADER}${source}${FOOTER}`;
  const { outputText, problems, syntactic } = target.typeCheck ? checkAndEmit(ts, wrapped, target.declarations) : transpile(ts, wrapped);
  if (problems.length > 0) {
    const kind = syntactic ? 'a syntax error' : 'a type error';
    const lines = problems.slice(0, 10).map((d) => describe(ts, d));
    const more = problems.length > 10 ? `\n(${problems.length - 10} more)` : '';
    throw new ToolError('program_invalid', `The program has ${kind} and was not run; fix it and run it again:\n${lines.join('\n')}${more}`);
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, outputText);
  return outputText;
}

/** How a program is emitted: what the sandbox's QuickJS runs, strict, without the author's comments. */
const EMIT: TS.CompilerOptions = { target: 9 /* ES2022 */, module: 99 /* ESNext */, alwaysStrict: true, removeComments: true };

// ES2023's library only: no DOM and no Node types, so `process`, `require`, `fetch` or `setTimeout` do not check.
const OPTIONS: TS.CompilerOptions = {
  ...EMIT,
  strict: true,
  lib: ['lib.es2023.d.ts'],
  types: [],
  skipLibCheck: true,
  noFallthroughCasesInSwitch: true,
};

interface Compiled {
  readonly outputText: string;
  readonly problems: readonly TS.Diagnostic[];
  /** True when the problems are syntax errors (the program could not be read), false when type errors. */
  readonly syntactic: boolean;
}

/** Without type checking: the types stripped, syntax errors reported. */
function transpile(ts: TypeScript, wrapped: string): Compiled {
  const { outputText, diagnostics = [] } = ts.transpileModule(wrapped, { compilerOptions: EMIT, fileName: 'program.ts', reportDiagnostics: true });
  return { outputText, problems: diagnostics, syntactic: true };
}

/**
 * What every check shares, made by the first one: the standard library's files (read from disk once), their and
 * the declarations' syntax trees (parsed and bound once), and the last program, handed to the next as its old
 * program so that TypeScript reuses its structure (lib files found, references resolved) and only the program
 * file changes. What each check still does is its own: a type checker over the files, and the program's check.
 */
interface CheckState {
  readonly libDir: string;
  readonly libTexts: Map<string, string | undefined>;
  readonly parsed: Map<string, TS.SourceFile>;
  declarations: { text: string; file: TS.SourceFile | undefined } | undefined;
  last: TS.Program | undefined;
}
let state: CheckState | undefined;

/**
 * With type checking: one program checks and emits (the program file parsed once); syntax errors first, then
 * type errors; emitted only when there are none.
 */
function checkAndEmit(ts: TypeScript, wrapped: string, declarations: string): Compiled {
  const s = (state ??= {
    libDir: dirname(ts.getDefaultLibFilePath(OPTIONS)),
    libTexts: new Map(),
    parsed: new Map(),
    declarations: undefined,
    last: undefined,
  });
  if (s.declarations?.text !== declarations) {
    // One declarations file at a time is kept: the tools a server reaches change only with its configuration.
    s.declarations = { text: declarations, file: undefined };
    s.last = undefined;
  }
  const current = s.declarations;
  const readLib = (fileName: string): string | undefined => {
    if (!fileName.startsWith(s.libDir)) return undefined;
    if (!s.libTexts.has(fileName)) s.libTexts.set(fileName, ts.sys.readFile(fileName));
    return s.libTexts.get(fileName);
  };
  const host: TS.CompilerHost = {
    getSourceFile: (fileName, version) => {
      if (fileName === PROGRAM) return ts.createSourceFile(fileName, wrapped, version, true);
      if (fileName === DECLARATIONS) return (current.file ??= ts.createSourceFile(fileName, declarations, version, true));
      let file = s.parsed.get(fileName);
      if (file === undefined) {
        const text = readLib(fileName);
        if (text === undefined) return undefined;
        file = ts.createSourceFile(fileName, text, version as TS.ScriptTarget, true);
        s.parsed.set(fileName, file);
      }
      return file;
    },
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    getDefaultLibLocation: () => s.libDir,
    writeFile: () => undefined,
    getCurrentDirectory: () => DIR,
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => fileName === PROGRAM || fileName === DECLARATIONS || readLib(fileName) !== undefined,
    readFile: (fileName) => (fileName === PROGRAM ? wrapped : fileName === DECLARATIONS ? declarations : readLib(fileName)),
    directoryExists: (dir) => dir === DIR || dir.startsWith(s.libDir),
    getDirectories: () => [],
  };
  const program = ts.createProgram([DECLARATIONS, PROGRAM], OPTIONS, host, s.last);
  s.last = program;
  const file = program.getSourceFile(PROGRAM)!;
  const syntax = program.getSyntacticDiagnostics(file);
  if (syntax.length > 0) return { outputText: '', problems: syntax, syntactic: true };
  const types = program.getSemanticDiagnostics(file);
  if (types.length > 0) return { outputText: '', problems: types, syntactic: false };
  let outputText = '';
  program.emit(file, (fileName, text) => {
    if (fileName.endsWith('.js')) outputText = text;
  });
  return { outputText, problems: [], syntactic: false };
}

/** `line 3, column 7: Property 'x' does not exist... (TS2339)`, at the line as the author wrote it. */
function describe(ts: TypeScript, diagnostic: TS.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.file === undefined || diagnostic.start === undefined) return `${message} (TS${diagnostic.code})`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  // Line 0 is the header; an error past the program's last line (an unclosed brace) is at its end.
  const programLines = diagnostic.file.text.split('\n').length - 3;
  return `line ${Math.min(Math.max(1, line), programLines)}, column ${character + 1}: ${message} (TS${diagnostic.code})`;
}
