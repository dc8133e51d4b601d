import { dirname } from 'node:path';
import ts from 'typescript';
import { ProgramTypeError } from './sandbox-errors.js';

const DIR = '/sandbox';
const DECLARATIONS = `${DIR}/tools.d.ts`;
const PROGRAM = `${DIR}/program.ts`;

/**
 * The program is the body of an async function, so it may `await` and `return` at its top level; this line comes
 * first, which is why compiler positions are shifted back by one line.
 */
const HEADER = 'async function __program__() {\n';

// ES2023 only: no DOM and no @types/node, so `process`, `require`, `fetch` or `setTimeout` do not type-check.
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  types: [],
  skipLibCheck: true,
  noFallthroughCasesInSwitch: true,
};

// The standard library's declarations, parsed once: they are most of the work of each check.
const libFiles = new Map<string, ts.SourceFile>();

/**
 * Type-checks a program against the tool declarations with the TypeScript compiler, then transpiles it to a
 * script for the sandbox, whose completion value is the program's promise. Throws ProgramTypeError with the
 * compiler's diagnostics, positioned in the program as written.
 */
export function compileProgram(source: string, declarations: string): string {
  const wrapped = `${HEADER}${source}\n}\n`;
  const files = new Map([
    [DECLARATIONS, declarations],
    [PROGRAM, wrapped],
  ]);
  const program = ts.createProgram([DECLARATIONS, PROGRAM], OPTIONS, compilerHost(files));
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) throw new ProgramTypeError(diagnostics.map(describe));
  const { outputText } = ts.transpileModule(wrapped, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, alwaysStrict: true }, fileName: 'program.ts' });
  return `${outputText}\n__program__();\n`;
}

function compilerHost(files: ReadonlyMap<string, string>): ts.CompilerHost {
  const libDir = dirname(ts.getDefaultLibFilePath(OPTIONS));
  return {
    getSourceFile: (fileName, languageVersion) => {
      const text = files.get(fileName);
      if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
      let lib = libFiles.get(fileName);
      if (lib === undefined) {
        const libText = ts.sys.readFile(fileName);
        if (libText === undefined) return undefined;
        lib = ts.createSourceFile(fileName, libText, languageVersion, true);
        libFiles.set(fileName, lib);
      }
      return lib;
    },
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    getDefaultLibLocation: () => libDir,
    writeFile: () => undefined,
    getCurrentDirectory: () => DIR,
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => files.has(fileName) || (fileName.startsWith(libDir) && ts.sys.fileExists(fileName)),
    readFile: (fileName) => files.get(fileName) ?? (fileName.startsWith(libDir) ? ts.sys.readFile(fileName) : undefined),
    directoryExists: (dir) => dir === DIR || dir.startsWith(libDir),
    getDirectories: () => [],
  };
}

/** `program.ts:3:7 TS2339: Property 'x' does not exist...`, at the line as the author wrote it. */
function describe(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const inProgram = diagnostic.file.fileName === PROGRAM;
  const where = inProgram ? `program.ts:${Math.max(1, line)}:${character + 1}` : `${diagnostic.file.fileName.replace(`${DIR}/`, '')}:${line + 1}:${character + 1}`;
  return `${where} TS${diagnostic.code}: ${message}`;
}

