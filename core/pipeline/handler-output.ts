import type { ToolOutput } from '../plugin/tool-context.js';
import { jsonProblem } from '../result/json-value.js';
import { scrubJsonValue, type Scrub } from '../result/secret-scrubber.js';

/** The keys of a ToolOutput that carry what a call shows: one of them must be there. */
const SHOWN = ['value', 'text', 'image'] as const;

/**
 * Refuses what a handler returned that is not a ToolOutput: nothing (a forgotten return), or an object with none
 * of `value`, `text` and `image` (the parsed body returned as it is, rather than as `{ value: body }`), which
 * rendered as `null`. The error becomes `tool_failed`, naming the plugin and tool (core-stages.ts).
 */
export function checkedOutput(output: unknown): ToolOutput {
  if (output === null || typeof output !== 'object') {
    // A plugin bug (a handler that forgot to return): say what it must return rather than show a TypeError.
    throw new Error(`the handler returned ${output === null ? 'null' : typeof output} instead of a ToolOutput ({ value } or { text })`);
  }
  if (SHOWN.some((key) => Object.prototype.hasOwnProperty.call(output, key))) return output as ToolOutput;
  const keys = Object.keys(output);
  throw new Error(
    `it returned an object without value or text (${keys.length === 0 ? 'no keys' : `keys: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''}`}): return { value: body } for a parsed body (with meta beside it), or { text } for text shown as it is.`,
  );
}

/** Thrown by the scrubbing walk at a node JSON cannot hold; `scrubbedOutput` replaces it with where and what it is. */
const NOT_JSON = new Error('the handler returned a value JSON cannot hold');

/**
 * The handler's output with every secret scrubbed. The walk that scrubs also bounds what rendering will walk
 * later (a value that shares parts by reference could render to far more than it holds), and notices a node
 * JSON cannot hold; a walk that fails is explained by `jsonProblem` when the value is not JSON (a circular value
 * runs out of nodes, or of stack, before it ends).
 */
export function scrubbedOutput(output: ToolOutput, scrub: Scrub, maxValueNodes: number): ToolOutput {
  const walk = {
    left: maxValueNodes,
    exceeded: () =>
      new Error(
        `it returned a value of more than ${maxValueNodes} nodes (a part shared by reference counts each time it appears), more than any response it may read can hold`,
      ),
    notJson: () => NOT_JSON,
  };
  try {
    const out: ToolOutput = { ...output };
    if (output.value !== undefined) out.value = scrubJsonValue(output.value, scrub, walk);
    if (output.meta !== undefined) out.meta = scrubJsonValue(output.meta, scrub, walk);
    if (output.resultMeta !== undefined) out.resultMeta = scrubJsonValue(output.resultMeta, scrub, walk);
    if (output.text !== undefined) out.text = scrub(output.text);
    return out;
  } catch (error) {
    const { value, meta, resultMeta } = output;
    const problem = jsonProblem({ value, meta, resultMeta });
    if (problem !== undefined) throw new Error(problem, { cause: error });
    throw error;
  }
}
