import { parentPort, workerData } from 'node:worker_threads';
import type { ErrorCode } from '../../../core/errors/catalogue.js';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { prepareSandbox, type PreparedSandbox, type ProgramHost } from './program-run.js';
import { freshQuickJs } from './quickjs-module.js';
import { limitStop, ProgramStop } from './program-stop.js';
import type { FromWorker, ToWorker, WorkerData } from './sandbox-messages.js';
import type { ProgramLimits } from '../code-mode-settings.js';

/**
 * A sandbox worker thread: runs one program at a time in a QuickJS instance of its own, off the server's event
 * loop, so a program that computes never delays another caller's call. Its tool calls and printed lines are
 * messages to the server, which makes the calls; the server stops a program with a `halt` message, and with
 * the shared flag when the program is computing and reads no message.
 */
const port = parentPort!;
const { haltFlag } = workerData as WorkerData;
const send = (message: FromWorker): void => port.postMessage(message);

let pending = new Map<number, { resolve(reply: string): void; reject(stop: ProgramStop): void }>();
let halt: ((stop: ProgramStop) => void) | undefined;
let nextCallId = 0;
/**
 * The QuickJS instance the next program gets, made while the thread is idle: each program still gets one of its
 * own, never used before, but does not wait for it to be instantiated.
 */
let ready: Promise<QuickJSWASMModule> | undefined = freshQuickJs();
ready.catch(() => (ready = undefined));

/** The sandbox made for the program the server is compiling ('prepare'), until it runs or is discarded. */
let prepared: Promise<PreparedSandbox> | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    pending.get(message.callId)?.resolve(message.reply);
    pending.delete(message.callId);
  } else if (message.type === 'halt') {
    halt?.(new ProgramStop(message.stop.code as ErrorCode, message.stop.message, message.stop.meta));
  } else if (message.type === 'prepare') {
    prepared = prepare(message.toolNames, message.limits);
  } else if (message.type === 'discard') {
    // Dropped whole with its WebAssembly instance; no program ever ran in it.
    prepared = undefined;
    makeReady();
  } else {
    const sandbox = prepared ?? prepare(message.toolNames, message.limits);
    prepared = undefined;
    void run(message.script, sandbox);
  }
});

/** A sandbox for one program, in the QuickJS instance made while the thread was idle; the next one is made at once. */
function prepare(toolNames: readonly string[], limits: ProgramLimits): Promise<PreparedSandbox> {
  let printed = 0;
  const host: ProgramHost = {
    toolNames,
    call: (name, args) =>
      new Promise((resolve, reject) => {
        const callId = nextCallId++;
        pending.set(callId, { resolve, reject });
        send({ type: 'call', callId, name, args });
      }),
    print: (line) => {
      // Counted here, where the program runs: the server could not stop a loop of prints in time.
      printed += Buffer.byteLength(line, 'utf8') + 1;
      if (printed > limits.memoryBytes) {
        throw limitStop.printed(limits.memoryBytes);
      }
      send({ type: 'print', line });
    },
  };
  const instance = ready ?? freshQuickJs();
  ready = undefined;
  return prepareSandbox(host, limits, instance);
}

/** The next program's QuickJS instance, made once this one is done with the thread (not while it runs). */
function makeReady(): void {
  if (ready !== undefined) return;
  ready = freshQuickJs();
  ready.catch(() => (ready = undefined));
}

async function run(script: string, preparing: Promise<PreparedSandbox>): Promise<void> {
  // Lowered as the run message arrives: a halt the server raises from now on (while the sandbox is finished) holds.
  Atomics.store(haltFlag, 0, 0);
  pending = new Map();
  const sandbox = await preparing;
  const end = sandbox.ready ? await sandbox.run(script, { halted: () => Atomics.load(haltFlag, 0) === 1, onHalt: (stop) => (halt = stop) }) : sandbox.end;
  halt = undefined;
  makeReady();
  send({
    type: 'done',
    end:
      end.kind === 'stopped'
        ? { kind: 'stopped', stop: { code: end.stop.code, message: end.stop.message, ...(end.stop.meta && { meta: end.stop.meta }) } }
        : end,
    startupMs: sandbox.startupMs,
  });
}
