import { parentPort, workerData } from 'node:worker_threads';
import type { ErrorCode } from '../../../core/errors/catalogue.js';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { runProgram, type ProgramHost } from './program-run.js';
import { freshQuickJs } from './quickjs-module.js';
import { limitStop, ProgramStop } from './program-stop.js';
import type { FromWorker, ToWorker, WorkerData } from './sandbox-messages.js';

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

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    pending.get(message.callId)?.resolve(message.reply);
    pending.delete(message.callId);
  } else if (message.type === 'halt') {
    halt?.(new ProgramStop(message.stop.code as ErrorCode, message.stop.message, message.stop.meta));
  } else void run(message);
});

async function run(message: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  Atomics.store(haltFlag, 0, 0);
  pending = new Map();
  let printed = 0;
  const host: ProgramHost = {
    toolNames: message.toolNames,
    call: (name, args) =>
      new Promise((resolve, reject) => {
        const callId = nextCallId++;
        pending.set(callId, { resolve, reject });
        send({ type: 'call', callId, name, args });
      }),
    print: (line) => {
      // Counted here, where the program runs: the server could not stop a loop of prints in time.
      printed += Buffer.byteLength(line, 'utf8') + 1;
      if (printed > message.limits.memoryBytes) {
        throw limitStop.printed(message.limits.memoryBytes);
      }
      send({ type: 'print', line });
    },
  };
  const instance = ready ?? freshQuickJs();
  ready = undefined;
  const { end, startupMs } = await runProgram(
    message.script,
    host,
    message.limits,
    { halted: () => Atomics.load(haltFlag, 0) === 1, onHalt: (stop) => (halt = stop) },
    instance,
  );
  halt = undefined;
  ready = freshQuickJs();
  ready.catch(() => (ready = undefined));
  send({
    type: 'done',
    end:
      end.kind === 'stopped'
        ? { kind: 'stopped', stop: { code: end.stop.code, message: end.stop.message, ...(end.stop.meta && { meta: end.stop.meta }) } }
        : end,
    startupMs,
  });
}
