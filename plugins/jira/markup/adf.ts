import { fromAdf, marklassian, toMarkdown } from '../../atlassian/markup-libraries.js';
import { mentionHref, mentionLabel, mentionOfHref } from '../../atlassian/mention.js';

/*
 * Markdown to the Atlassian Document Format (Jira Cloud's descriptions and comments) with marklassian, and
 * back with mdast-util-from-adf and mdast-util-to-markdown. The adapters here only do what the libraries
 * leave out: mentions (mention.ts), and ADF nodes the reader has no Markdown for, which it would refuse.
 */

export interface AdfNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  text?: string;
}

export interface AdfDocument {
  version: 1;
  type: 'doc';
  content: AdfNode[];
}

/** Markdown as an ADF document; `[@Name](mention:id)` links become mention nodes. */
export function markdownToAdf(markdown: string): AdfDocument {
  const doc = marklassian().markdownToAdf(markdown) as AdfDocument;
  return { ...doc, content: doc.content.map(withMentionNodes) };
}

function withMentionNodes(node: AdfNode): AdfNode {
  if (node.type === 'text') {
    const link = node.marks?.find((m) => m.type === 'link');
    const mention = mentionOfHref(link?.attrs?.href as string | undefined, node.text ?? '');
    return mention === undefined ? node : { type: 'mention', attrs: { id: mention.id, text: mention.label } };
  }
  return node.content === undefined ? node : { ...node, content: node.content.map(withMentionNodes) };
}

/** The node types mdast-util-from-adf turns into Markdown; it throws on any other. */
const READABLE = new Set([
  'blockCard',
  'blockquote',
  'bulletList',
  'codeBlock',
  'date',
  'decisionItem',
  'decisionList',
  'doc',
  'embedCard',
  'emoji',
  'expand',
  'hardBreak',
  'heading',
  'inlineCard',
  'layoutColumn',
  'layoutSection',
  'listItem',
  'media',
  'mediaGroup',
  'mediaSingle',
  'nestedExpand',
  'orderedList',
  'panel',
  'paragraph',
  'rule',
  'table',
  'tableCell',
  'tableHeader',
  'tableRow',
  'taskItem',
  'taskList',
  'text',
]);

/** An ADF document (a Jira Cloud description or comment body) as Markdown; null or a non-document is "". */
export function adfToMarkdown(doc: unknown): string {
  if (doc === null || typeof doc !== 'object' || (doc as AdfNode).type !== 'doc') return typeof doc === 'string' ? doc : '';
  const readable = { ...(doc as AdfDocument), version: 1, content: ((doc as AdfDocument).content ?? []).flatMap(readableNodes) };
  const { toMarkdown: render, gfmToMarkdown } = toMarkdown();
  return render(fromAdf().fromADF(readable), { extensions: [gfmToMarkdown()], bullet: '-', emphasis: '*', fences: true }).trimEnd();
}

/**
 * A node as the reader can take it: a mention as its Markdown link, a status lozenge or an inline extension as
 * its text, a code block's text in one piece; a node it has no Markdown for is replaced by its content, or
 * dropped when it has none (an extension macro, a placeholder).
 */
function readableNodes(node: AdfNode): AdfNode[] {
  if (node.type === 'mention') {
    const id = String(node.attrs?.id ?? '');
    return [{ type: 'text', text: mentionLabel(node.attrs?.text as string | undefined, id), marks: [{ type: 'link', attrs: { href: mentionHref(id) } }] }];
  }
  if (node.type === 'codeBlock') return [{ ...node, content: [{ type: 'text', text: (node.content ?? []).map((c) => c.text ?? '').join('') }] }];
  if (node.type === 'status' || node.type === 'inlineExtension' || node.type === 'mediaInline') {
    const text = node.attrs?.text;
    return typeof text === 'string' && text !== '' ? [{ type: 'text', text }] : [];
  }
  const content = node.content?.flatMap(readableNodes);
  if (!READABLE.has(node.type)) return content ?? [];
  return content === undefined ? [node] : [{ ...node, content }];
}
