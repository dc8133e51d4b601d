import type { ReachableTool } from '../../core/plugin/tool-catalogue.js';

/** What search_tools asks for: words to match (or tools' names), toolsets (or plugins) to show whole. */
export interface ToolQuery {
  readonly query?: string;
  readonly toolsets?: readonly string[];
  readonly limit: number;
}

/** A tool whose score is below this share of the best one's is left out: it matched a word, not the question. */
const RELEVANCE = 0.6;

// A word in a tool's name counts most, then in its title, then in its description.
const WEIGHTS = { name: 4, title: 2, description: 1 } as const;

/**
 * The tools a query names, best first: each word of `query` (case-insensitive, a plural's singular too) scores
 * where it appears; `toolsets` selects whole toolsets, a plugin's name all of its toolsets. Both: the union.
 */
export function searchTools(tools: readonly ReachableTool[], query: ToolQuery): ReachableTool[] {
  const picked = new Map<string, { tool: ReachableTool; score: number }>();
  // A tool named in the query is shown whatever the words score.
  for (const name of (query.query ?? '').split(/[\s,]+/)) {
    const tool = tools.find((t) => t.descriptor.name === name);
    if (tool !== undefined) picked.set(name, { tool, score: Number.MAX_SAFE_INTEGER });
  }
  for (const set of query.toolsets ?? []) {
    for (const tool of tools) {
      if (tool.toolset === set || tool.toolset.startsWith(`${set}.`)) picked.set(tool.descriptor.name, { tool, score: Number.MAX_SAFE_INTEGER });
    }
  }
  const words = wordsOf(query.query ?? '');
  if (words.length > 0) {
    let scored = tools
      .map((tool) => ({ tool, score: scoreOf(tool, words) }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.tool.descriptor.name.localeCompare(b.tool.descriptor.name));
    const best = scored[0]?.score ?? 0;
    scored = scored.filter((s) => s.score >= best * RELEVANCE).slice(0, query.limit);
    for (const s of scored) if (!picked.has(s.tool.descriptor.name)) picked.set(s.tool.descriptor.name, s);
  }
  return [...picked.values()].map((s) => s.tool);
}

/** The toolsets and their tools' names: what search_tools shows when asked nothing in particular. */
export function toolIndex(tools: readonly ReachableTool[]): string {
  const byToolset = new Map<string, string[]>();
  for (const { descriptor, toolset } of tools) byToolset.set(toolset, [...(byToolset.get(toolset) ?? []), descriptor.name]);
  return [...byToolset].map(([set, names]) => `${set}: ${names.join(', ')}`).join('\n');
}

/**
 * A query word counts where a word of the field starts with it ("run" finds "runs", not "rerun"), weighted by
 * field; a tool whose name the query covers (every word after the vendor's) counts double: "jira get" is jira_get
 * before jira_get_issue.
 */
function scoreOf({ descriptor }: ReachableTool, words: readonly string[]): number {
  const fields = {
    name: descriptor.name.toLowerCase().split('_'),
    title: splitWords(descriptor.title ?? ''),
    description: splitWords(descriptor.description ?? ''),
  };
  const found = (field: readonly string[], word: string): boolean => field.some((w) => w.startsWith(word));
  let score = 0;
  for (const word of words) {
    for (const [field, weight] of Object.entries(WEIGHTS) as Array<[keyof typeof WEIGHTS, number]>) {
      if (found(fields[field], word)) score += weight;
    }
  }
  const covered = fields.name.slice(1).every((part) => words.some((word) => part.startsWith(word)));
  return covered ? score * 2 : score;
}

function splitWords(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/);
}

function wordsOf(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  // "runs" finds "run", "issues" finds "issue": a plural's stem matches both.
  return [...new Set(words.map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w)))];
}
