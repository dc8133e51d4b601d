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
  const { outputText, diagnostics = [] } = ts.transpileModule(wrapped, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, alwaysStrict: true, removeComments: true },
    fileName: 'program.ts',
    reportDiagnostics: true,
  });
  const problems = diagnostics.length > 0 ? diagnostics : target.typeCheck ? typeErrors(ts, wrapped, target.declarations) : [];
  if (problems.length > 0) {
    const kind = diagnostics.length > 0 ? 'a syntax error' : 'a type error';
    const lines = problems.slice(0, 10).map((d) => describe(ts, d));
    const more = problems.length > 10 ? `\n(${problems.length - 10} more)` : '';
    throw new ToolError('program_invalid', `The program has ${kind} and was not run; fix it and run it again:\n${lines.join('\n')}${more}`);
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, outputText);
  return outputText;
}

// ES2023's library only: no DOM and no Node types, so `process`, `require`, `fetch` or `setTimeout` do not check.
const OPTIONS: TS.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: 99 /* ESNext */,
  lib: ['lib.es2023.d.ts'],
  types: [],
  skipLibCheck: true,
  noFallthroughCasesInSwitch: true,
};

// The standard library's and the declarations' syntax trees, parsed once: most of a check's work.
const parsed = new Map<string, TS.SourceFile>();

function typeErrors(ts: TypeScript, wrapped: string, declarations: string): readonly TS.Diagnostic[] {
  const libDir = dirname(ts.getDefaultLibFilePath(OPTIONS));
  const sourceFile = (fileName: string, text: string, version: TS.ScriptTarget): TS.SourceFile => {
    const key = `${fileName}\0${fileName === DECLARATIONS ? createHash('sha256').update(text).digest('hex') : ''}`;
    let file = parsed.get(key);
    if (file === undefined) {
      file = ts.createSourceFile(fileName, text, version, true);
      // One declarations file at a time is kept: the tools a server reaches change only with its configuration.
      if (fileName === DECLARATIONS) for (const k of parsed.keys()) if (k.startsWith(`${DECLARATIONS}\0`)) parsed.delete(k);
      parsed.set(key, file);
    }
    return file;
  };
  const readLib = (fileName: string): string | undefined => (fileName.startsWith(libDir) ? ts.sys.readFile(fileName) : undefined);
  const host: TS.CompilerHost = {
    getSourceFile: (fileName, version) => {
      if (fileName === PROGRAM) return ts.createSourceFile(fileName, wrapped, version, true);
      const text = fileName === DECLARATIONS ? declarations : readLib(fileName);
      return text === undefined ? undefined : sourceFile(fileName, text, version as TS.ScriptTarget);
    },
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    getDefaultLibLocation: () => libDir,
    writeFile: () => undefined,
    getCurrentDirectory: () => DIR,
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => fileName === PROGRAM || fileName === DECLARATIONS || readLib(fileName) !== undefined,
    readFile: (fileName) => (fileName === PROGRAM ? wrapped : fileName === DECLARATIONS ? declarations : readLib(fileName)),
    directoryExists: (dir) => dir === DIR || dir.startsWith(libDir),
    getDirectories: () => [],
  };
  const program = ts.createProgram([DECLARATIONS, PROGRAM], OPTIONS, host);
  const file = program.getSourceFile(PROGRAM)!;
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
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
