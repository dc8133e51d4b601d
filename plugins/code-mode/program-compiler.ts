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

/**
 * The standard library a program is checked against: ES2023's only (no DOM and no Node types, so `process`,
 * `require`, `fetch` or `setTimeout` do not check), read once from TypeScript's lib.es2023.d.ts and the files it
 * references, as one file (LIBRARY). TypeScript's own ~60 lib files would have each new type checker merge the
 * same interfaces again (Array, Promise and the like are declared across a dozen of them) before it checks
 * anything; in one file the parser merges them once, and the file is kept.
 */
const STANDARD_LIBRARY = 'es2023';
const LIBRARY = `${DIR}/lib.d.ts`;

const OPTIONS: TS.CompilerOptions = {
  ...EMIT,
  strict: true,
  noLib: true,
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
 * What every check shares, made by the first one: the standard library as one file and the declarations, each
 * parsed and bound once, and the last program, handed to the next as its old program so that TypeScript reuses
 * its structure and only the program file changes. What each check still does is its own: a type checker over
 * the files, and the program's check.
 */
interface CheckState {
  readonly library: TS.SourceFile;
  declarations: { text: string; file: TS.SourceFile | undefined } | undefined;
  last: TS.Program | undefined;
}
let state: CheckState | undefined;

/**
 * TypeScript's lib.<name>.d.ts and every lib file it references, each once, referenced files first, as one text
 * without the `/// <reference lib>` lines (the files are all there).
 */
export function standardLibrary(ts: TypeScript, name = STANDARD_LIBRARY): string {
  const dir = dirname(ts.getDefaultLibFilePath({ target: EMIT.target! }));
  const texts: string[] = [];
  const seen = new Set<string>();
  const add = (lib: string): void => {
    if (seen.has(lib)) return;
    seen.add(lib);
    const text = ts.sys.readFile(`${dir}/lib.${lib}.d.ts`);
    if (text === undefined) throw new Error(`TypeScript's lib.${lib}.d.ts is missing from ${dir}`);
    for (const [, referenced] of text.matchAll(REFERENCE_LIB)) add(referenced!);
    texts.push(text.replaceAll(REFERENCE_LIB, ''));
  };
  add(name);
  return texts.join('\n');
}
const REFERENCE_LIB = /^\/\/\/ <reference lib="([^"]+)" \/>\r?\n?/gm;

/**
 * With type checking: one program checks and emits (the program file parsed once); syntax errors first, then
 * type errors; emitted only when there are none.
 */
function checkAndEmit(ts: TypeScript, wrapped: string, declarations: string): Compiled {
  const s = (state ??= {
    library: ts.createSourceFile(LIBRARY, standardLibrary(ts), EMIT.target!, true),
    declarations: undefined,
    last: undefined,
  });
  if (s.declarations?.text !== declarations) {
    // One declarations file at a time is kept: the tools a server reaches change only with its configuration.
    s.declarations = { text: declarations, file: undefined };
    s.last = undefined;
  }
  const current = s.declarations;
  const files = new Map<string, () => TS.SourceFile>([
    [LIBRARY, () => s.library],
    [DECLARATIONS, () => (current.file ??= ts.createSourceFile(DECLARATIONS, declarations, EMIT.target!, true))],
    [PROGRAM, () => ts.createSourceFile(PROGRAM, wrapped, EMIT.target!, true)],
  ]);
  const host: TS.CompilerHost = {
    getSourceFile: (fileName) => files.get(fileName)?.(),
    getDefaultLibFileName: () => LIBRARY,
    writeFile: () => undefined,
    getCurrentDirectory: () => DIR,
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => files.has(fileName),
    readFile: (fileName) => files.get(fileName)?.().text,
    directoryExists: (dir) => dir === DIR,
    getDirectories: () => [],
  };
  const program = ts.createProgram([LIBRARY, DECLARATIONS, PROGRAM], OPTIONS, host, s.last);
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
