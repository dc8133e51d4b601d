import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import type TurndownService from 'turndown';
import type { Deployment } from '../atlassian/deployment.js';
import { markdownIt, turndown } from '../atlassian/markup-libraries.js';
import { mentionMarkdown, mentionOfHref, type Mention } from '../atlassian/mention.js';

/*
 * Markdown to Confluence's storage format (XHTML with Confluence's own elements) with markdown-it, and back with
 * turndown and its GitHub-flavoured plugin. The adapters here add what the libraries cannot know: code blocks
 * as Confluence's code macro, and mentions as `<ri:user>` links (mention.ts), both ways; the text of CDATA
 * sections, which an HTML parser would drop; and the parameters of other macros, which are not content.
 */

const writers = new Map<Deployment, MarkdownIt>();

/** Markdown as storage XHTML: raw HTML in the Markdown is shown as text, never passed through as markup. */
export function markdownToStorage(markdown: string, deployment: Deployment): string {
  let md = writers.get(deployment);
  if (md === undefined) {
    md = markdownIt()({ html: false, xhtmlOut: true, linkify: false });
    md.renderer.rules.fence = (tokens, i) => codeMacro(tokens[i]!.content.replace(/\n$/, ''), tokens[i]!.info.trim().split(/\s+/)[0] ?? '');
    md.core.ruler.push('confluence_mentions', (state) => {
      for (const token of state.tokens) if (token.children !== null) token.children = withMentionLinks(token.children, state, deployment);
    });
    writers.set(deployment, md);
  }
  return md.render(markdown).trimEnd();
}

function codeMacro(code: string, language: string): string {
  const param = language === '' ? '' : `<ac:parameter ac:name="language">${escapeXml(language)}</ac:parameter>`;
  return `<ac:structured-macro ac:name="code">${param}<ac:plain-text-body>${cdata(code)}</ac:plain-text-body></ac:structured-macro>\n`;
}

/** Each `[@Name](mention:id)` link (link_open, its text, link_close) as one `<ac:link>` to the user. */
function withMentionLinks(children: Token[], state: StateCore, deployment: Deployment): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < children.length; i++) {
    const open = children[i]!;
    const close = children[i + 2];
    const mention =
      open.type === 'link_open' && close?.type === 'link_close' ? mentionOfHref(String(open.attrGet('href') ?? ''), children[i + 1]!.content) : undefined;
    if (mention === undefined) {
      out.push(open);
      continue;
    }
    const link = new state.Token('html_inline', '', 0);
    link.content = userLink(mention, deployment);
    out.push(link);
    i += 2;
  }
  return out;
}

/** Cloud names people by account id; Data Center by user key (32 hex digits, as the editor stores it) or user name. */
function userLink(mention: Mention, deployment: Deployment): string {
  const attribute = deployment === 'cloud' ? 'ri:account-id' : /^[0-9a-f]{32}$/i.test(mention.id) ? 'ri:userkey' : 'ri:username';
  return `<ac:link><ri:user ${attribute}="${escapeXml(mention.id)}" /><ac:plain-text-link-body>${cdata(mention.label)}</ac:plain-text-link-body></ac:link>`;
}

let reader: TurndownService | undefined;

/** Storage XHTML (a page or comment body) as Markdown. */
export function storageToMarkdown(storage: string | null | undefined): string {
  if (typeof storage !== 'string' || storage.trim() === '') return '';
  reader ??= storageReader();
  return reader.turndown(asHtml(storage)).trim();
}

/**
 * Storage XHTML as an HTML parser must get it. It reads CDATA as a comment and drops it: its text is escaped
 * into the document instead, a code macro's inside <pre> so that its lines are kept. It reads `<ri:user />` as
 * an open element that swallows what follows: Confluence's self-closed elements are closed explicitly.
 */
function asHtml(storage: string): string {
  return (
    storage
      .replace(
        /(<ac:plain-text-body>)([\s\S]*?)(<\/ac:plain-text-body>)/g,
        (_, open: string, body: string, close: string) => `${open}<pre>${escapeXml(cdataText(body))}</pre>${close}`,
      )
      .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, text: string) => escapeXml(text))
      .replace(/<((?:ac|ri):[\w-]+)((?:\s+[\w:-]+="[^"]*")*)\s*\/>/g, '<$1$2></$1>')
      // A mention written by Confluence's editor has no text of its own: an empty element turndown would drop,
      // taking the space after it along. It gets its id as its text.
      .replace(
        /(<ac:link>\s*<ri:user\s+ri:(?:account-id|userkey|username)="([^"]*)"\s*><\/ri:user>)\s*(<\/ac:link>)/g,
        '$1<ac:plain-text-link-body>@$2</ac:plain-text-link-body>$3',
      )
      // Column widths before the rows would hide the header row from the table rule.
      .replace(/<colgroup>[\s\S]*?<\/colgroup>/g, '')
  );
}

/** What the rules read of a parsed element (the project compiles without the DOM's types). */
interface DomElement {
  nodeName: string;
  children: ArrayLike<DomElement>;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

function storageReader(): TurndownService {
  const { TurndownService: Service, gfm } = turndown();
  const element = (node: unknown): DomElement => node as DomElement;
  const named = (node: unknown, name: string): boolean => element(node).nodeName.toLowerCase() === name;
  const child = (node: unknown, name: string): DomElement | undefined => Array.from(element(node).children).find((c) => named(c, name));
  const userLink = (node: unknown): string | undefined => {
    const user = named(node, 'ac:link') ? child(node, 'ri:user') : undefined;
    if (user === undefined) return undefined;
    const id = user.getAttribute('ri:account-id') ?? user.getAttribute('ri:userkey') ?? user.getAttribute('ri:username') ?? '';
    const label = child(node, 'ac:plain-text-link-body')?.textContent ?? child(node, 'ac:link-body')?.textContent ?? '';
    const mention = mentionOfHref(`mention:${id}`, label);
    return mention === undefined ? label : mentionMarkdown(mention);
  };
  const service = new Service({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
  });
  service.use(gfm);
  service.addRule('confluenceCode', {
    filter: (node) => named(node, 'ac:structured-macro') && ['code', 'noformat'].includes(element(node).getAttribute('ac:name') ?? ''),
    replacement: (_content, node) => {
      const language = Array.from(element(node).children).find((c) => named(c, 'ac:parameter') && c.getAttribute('ac:name') === 'language');
      const body = child(node, 'ac:plain-text-body')?.textContent ?? '';
      return `\n\n\`\`\`${language?.textContent?.trim() ?? ''}\n${body.replace(/\n$/, '')}\n\`\`\`\n\n`;
    },
  });
  service.addRule('confluenceMention', {
    filter: (node) => userLink(node) !== undefined,
    replacement: (_content, node) => userLink(node)!,
  });
  // Confluence wraps every list item's text in a paragraph: read as the item's text, so the list stays tight.
  service.addRule('listItemParagraph', {
    filter: (node) => named(node, 'p') && named((node as unknown as { parentNode: unknown }).parentNode, 'li'),
    replacement: (content, node) => ((node as unknown as { nextSibling: unknown }).nextSibling === null ? content : `${content}\n`),
  });
  service.addRule('confluencePageLink', {
    filter: (node) => named(node, 'ac:link') && child(node, 'ri:user') === undefined,
    replacement: (content, node) => {
      const title = child(node, 'ri:page')?.getAttribute('ri:content-title') ?? '';
      return content.trim() !== '' ? content : title;
    },
  });
  // A macro's parameters configure it; they are not text of the page.
  service.remove((node) => named(node, 'ac:parameter'));
  return service;
}

/** The text of one or more CDATA sections in a row (a "]]>" in the text is written as two). */
function cdataText(sections: string): string {
  return sections.replace(/\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*/g, '$1');
}

function cdata(text: string): string {
  return `<![CDATA[${text.replace(/\]\]>/g, ']]]]><![CDATA[>')}]]>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
