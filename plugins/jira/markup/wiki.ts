import { jira2md } from '../../atlassian/markup-libraries.js';
import { mentionMarkdown, mentionOfHref } from '../../atlassian/mention.js';

/*
 * Markdown to Jira wiki markup (what Jira Data Center and Server store in descriptions and comments) and back,
 * with jira2md. jira2md rewrites line by line with regular expressions, and would also rewrite what it must
 * leave alone: a "# comment" line inside a code block would become a heading, a "*" a list item. So code
 * (blocks and inline) and mentions are set aside before it runs and put back, in the target's syntax, after.
 */

/** Stand-ins no jira2md rule matches: private-use characters around an index. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const HELD = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g');

class Held {
  private readonly pieces: string[] = [];
  hold(text: string): string {
    this.pieces.push(text);
    return `${OPEN}${this.pieces.length - 1}${CLOSE}`;
  }
  restore(text: string): string {
    return text.replace(HELD, (_, i: string) => this.pieces[Number(i)] ?? '');
  }
}

/** Markdown as Jira wiki markup; `[@name](mention:name)` becomes `[~name]`. */
export function markdownToWiki(markdown: string): string {
  const held = new Held();
  const text = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/^(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)\n?\1[ \t]*$/gm, (_, _fence: string, lang: string, code: string) =>
      held.hold(`{code${lang === '' ? '' : `:${lang}`}}\n${code}\n{code}`),
    )
    .replace(/`([^`\n]+)`/g, (_, code: string) => held.hold(`{{${code}}}`))
    .replace(/\[([^\]\n]*)\]\((mention:[^)\s]+)\)/g, (whole: string, label: string, href: string) => {
      const mention = mentionOfHref(href, label);
      return mention === undefined ? whole : held.hold(`[~${mention.id}]`);
    })
    // jira2md knows "*" bullets only: "-" and "+" ones (as in most Markdown) are given to it as "*".
    .replace(/^([ \t]*)[-+][ \t]+/gm, '$1* ');
  // jira2md finds a table only after a blank line, and only when its last row ends with a newline.
  return held
    .restore(jira2md().to_jira(`\n${text}\n`))
    .replace(/^\n/, '')
    .trimEnd();
}

/** Jira wiki markup as Markdown; `[~name]` (and `[~accountid:id]`) becomes `[@name](mention:name)`. */
export function wikiToMarkdown(wiki: string | null | undefined): string {
  if (typeof wiki !== 'string') return '';
  const held = new Held();
  const text = wiki
    .replace(/\r\n?/g, '\n')
    .replace(/(?<!\{)\{code(?::([^}]*))?\}\n?([\s\S]*?)\n?\{code\}(?!\})/g, (_, params: string | undefined, code: string) =>
      held.hold(`\`\`\`${codeLanguage(params)}\n${code}\n\`\`\``),
    )
    .replace(/\{noformat[^}]*\}\n?([\s\S]*?)\n?\{noformat\}/g, (_, code: string) => held.hold(`\`\`\`\n${code}\n\`\`\``))
    .replace(/\{\{([^}\n]+)\}\}/g, (_, code: string) => held.hold(`\`${code}\``))
    .replace(/\[~(?:accountid:)?([^\]\s]+)\]/g, (_, id: string) => held.hold(mentionMarkdown({ id, label: `@${id}` })));
  return held.restore(jira2md().to_markdown(text)).trim();
}

/** The language of `{code:java}` or `{code:title=A.java|language=java}`, or "" when none is named. */
function codeLanguage(params: string | undefined): string {
  if (params === undefined) return '';
  const parts = params.split('|').map((p) => p.trim());
  const named = parts.find((p) => p.startsWith('language='));
  if (named !== undefined) return named.slice('language='.length);
  return parts[0] !== undefined && !parts[0].includes('=') ? parts[0] : '';
}
