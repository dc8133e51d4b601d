import { readFileSync } from 'node:fs';
import type { MockUpstream } from 'mcp-devtools/build/server/testing/mock-upstream.js';
import type { DirectAgent } from './direct-agent.js';

/**
 * One question about a vendor's data, answered two ways: by a model calling tools directly and reading every
 * result, and by one program the model writes for the harness. Both must give `expected()`.
 */
export interface Task<Answer = unknown> {
  id: string;
  /** The question, as a user asks it. */
  question: string;
  /** What a model asks the server's search_tools for, to find the tools the task needs (server-side code mode). */
  search: { query?: string; toolsets?: string[] };
  /** Serves the task's data set on the vendor mock. */
  mount(mock: MockUpstream): void;
  /** The direct way; the answer is computed from the texts the agent read. */
  direct(agent: DirectAgent): Promise<Answer>;
  /** The program the model writes (programs/<id>.ts); it prints the answer as one line of JSON. */
  program(): string;
  /** The answer, computed from the data set itself. */
  expected(): Answer;
}

/** The source of programs/<id>.ts, exactly as the model would have written it (and as it is counted). */
export function programSource(id: string): string {
  return readFileSync(new URL(`../../../programs/${id}.ts`, import.meta.url), 'utf8');
}

/** The answer a program printed: its last line, JSON. */
export function printedAnswer(printed: string): unknown {
  const last = printed.trimEnd().split('\n').at(-1) ?? '';
  return JSON.parse(last) as unknown;
}

/** Builds a data set once, on first use: each is a few MB that most test files never need. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
