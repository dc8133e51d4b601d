import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

const VARIANT = '@jitl/quickjs-wasmfile-release-sync';

interface Loaded {
  newModule(variant: QuickJSSyncVariant): Promise<QuickJSWASMModule>;
  variant: QuickJSSyncVariant;
}

let loading: Promise<Loaded> | undefined;

/**
 * QuickJS (compiled to WebAssembly), loaded by the first program: its engine, and its WebAssembly module compiled
 * once. The sync build: a program's tool calls are host promises it awaits, so no asyncify build is needed.
 */
function load(): Promise<Loaded> {
  const started = (async (): Promise<Loaded> => {
    const engine = await import('quickjs-emscripten-core');
    const base = (await import('@jitl/quickjs-wasmfile-release-sync')).default as unknown as QuickJSSyncVariant;
    const wasmPath = createRequire(import.meta.url).resolve(`${VARIANT}/wasm`);
    // Node's global WebAssembly (the project compiles without the DOM library, which declares it).
    const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;
    const compiled = await wasm.compile(await readFile(wasmPath));
    const variant = engine.newVariant(base, { wasmModule: compiled as never });
    return { newModule: (v) => engine.newQuickJSWASMModuleFromVariant(v), variant };
  })();
  started.catch(() => (loading = undefined));
  return started;
}

/**
 * A QuickJS instance of its own for one program: a fresh WebAssembly instance, with its own linear memory, so
 * nothing one program leaves behind (a polluted prototype, a leaked handle, a heap QuickJS failed to free) can be
 * seen by the next, whoever runs it. Instantiating the compiled module takes a few milliseconds.
 */
export async function freshQuickJs(): Promise<QuickJSWASMModule> {
  loading ??= load();
  const { newModule, variant } = await loading;
  return newModule(variant);
}
