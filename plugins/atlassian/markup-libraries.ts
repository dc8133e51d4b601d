import { createRequire } from 'node:module';
import type { MarkdownIt, MarkdownItOptions } from 'markdown-it';
import type { Options as ToMarkdownOptions } from 'mdast-util-to-markdown';

/*
 * The libraries that convert Markdown to and from what Jira and Confluence store (the Atlassian Document Format,
 * Jira wiki markup, Confluence storage XHTML), loaded from the installed packages by the first call that
 * converts, as Ajv and the YAML parser are: start-up loads none of them, and a route that converts is
 * synchronous. Each is required once per process.
 */

const load = <T>(loaded: { value?: T }, get: () => unknown): T => (loaded.value ??= get() as T);

/** marklassian: Markdown to the Atlassian Document Format (built on marked). */
export interface Marklassian {
  markdownToAdf(markdown: string): { version: 1; type: 'doc'; content: unknown[] };
}
const marklassianModule: { value?: Marklassian } = {};
export const marklassian = (): Marklassian => load(marklassianModule, () => createRequire(import.meta.url)('marklassian'));

/** mdast-util-from-adf: the Atlassian Document Format to a Markdown syntax tree. */
export interface FromAdf {
  fromADF(doc: unknown): unknown;
}
const fromAdfModule: { value?: FromAdf } = {};
export const fromAdf = (): FromAdf => load(fromAdfModule, () => createRequire(import.meta.url)('mdast-util-from-adf'));

/** mdast-util-to-markdown with the GitHub-flavoured extensions (tables, strikethrough, task lists). */
export interface ToMarkdown {
  toMarkdown(tree: unknown, options?: ToMarkdownOptions): string;
  gfmToMarkdown(): NonNullable<ToMarkdownOptions['extensions']>[number];
}
const toMarkdownModule: { value?: ToMarkdown } = {};
export const toMarkdown = (): ToMarkdown =>
  load(toMarkdownModule, () => ({
    toMarkdown: (createRequire(import.meta.url)('mdast-util-to-markdown') as ToMarkdown).toMarkdown,
    gfmToMarkdown: (createRequire(import.meta.url)('mdast-util-gfm') as ToMarkdown).gfmToMarkdown,
  }));

/** jira2md: Markdown to Jira wiki markup and back. */
export interface Jira2Md {
  to_jira(markdown: string): string;
  to_markdown(wiki: string): string;
}
const jira2mdModule: { value?: Jira2Md } = {};
export const jira2md = (): Jira2Md => load(jira2mdModule, () => createRequire(import.meta.url)('jira2md'));

/** markdown-it: Markdown to (X)HTML, the body of Confluence's storage format. */
export type MarkdownItFactory = (options?: MarkdownItOptions) => MarkdownIt;
const markdownItModule: { value?: MarkdownItFactory } = {};
export const markdownIt = (): MarkdownItFactory => load(markdownItModule, () => createRequire(import.meta.url)('markdown-it'));

/** turndown with the GitHub-flavoured plugin (tables, strikethrough): HTML to Markdown. */
export interface Turndown {
  TurndownService: typeof import('turndown');
  gfm: import('turndown').Plugin;
}
const turndownModule: { value?: Turndown } = {};
export const turndown = (): Turndown =>
  load(turndownModule, () => ({
    TurndownService: createRequire(import.meta.url)('turndown') as typeof import('turndown'),
    gfm: (createRequire(import.meta.url)('@joplin/turndown-plugin-gfm') as { gfm: import('turndown').Plugin }).gfm,
  }));
