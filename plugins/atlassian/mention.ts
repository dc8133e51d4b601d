/*
 * How a mention of a person reads in Markdown, the same in Jira and Confluence, on Cloud and Data Center:
 * `[@Mia Krystof](mention:5b10a2844c20165700ede21g)`, a link whose text is the name shown and whose target
 * is the account id (Cloud) or user name / user key (Data Center). Any Markdown reader shows the name; the
 * converters turn it into the product's own mention (an ADF mention node, `[~name]` in wiki markup, an
 * `<ri:user>` link in Confluence storage) and back, so it survives a read and a write unchanged.
 */

const SCHEME = 'mention:';

export interface Mention {
  /** Account id (Cloud), user name or user key (Data Center). */
  id: string;
  /** The name shown, with its leading "@". */
  label: string;
}

/** The mention a link target names, or undefined for any other link. */
export function mentionOfHref(href: string | undefined | null, text: string): Mention | undefined {
  if (typeof href !== 'string' || !href.startsWith(SCHEME)) return undefined;
  const id = decodeURIComponent(href.slice(SCHEME.length)).trim();
  return id === '' ? undefined : { id, label: mentionLabel(text, id) };
}

/** The link target of a mention. Characters Markdown would end a link at are escaped. */
export function mentionHref(id: string): string {
  return SCHEME + id.replace(/[\s()<>%]/g, (c) => encodeURIComponent(c));
}

/** The Markdown of a mention. */
export function mentionMarkdown(mention: Mention): string {
  const label = mention.label.replace(/[[\]\\]/g, (c) => `\\${c}`);
  return `[${label}](${mentionHref(mention.id)})`;
}

/** The name shown: the given text with one leading "@", or "@" and the id when there is no text. */
export function mentionLabel(text: string | undefined, id: string): string {
  const name = (text ?? '').trim().replace(/^@+/, '');
  return `@${name === '' ? id : name}`;
}
