import { expect } from 'chai';
import { adfToMarkdown, markdownToAdf, type AdfNode } from '../../../plugins/jira/markup/adf.js';
import { markdownToWiki, wikiToMarkdown } from '../../../plugins/jira/markup/wiki.js';
import { payload } from '../../fixtures/atlassian/corpus-kit.js';

/** Markdown as the ADF reader writes it, with every construct the tools promise to keep. */
const MARKDOWN = [
  '# Release 2025.03',
  '',
  'Ship **checkout** with *care*, `--dry-run` first; see [the runbook](https://wiki.acme.example/x/AYAC) and ask [@Mia Krystof](mention:5b10a2844c20165700ede21g).',
  '',
  '## Steps',
  '',
  '1. Freeze the train',
  '2. Roll out',
  '   - the API',
  '   - the workers',
  '',
  '```bash',
  '# a comment, not a heading',
  'deploy --to 2025.03 *all*',
  '```',
  '',
  '| Service | Owner |',
  '| ------- | ----- |',
  '| api     | Mia   |',
  '',
  '> Never roll back the migration.',
].join('\n');

/** The shape of a document without the ids and layout attributes Jira adds: what a reader sees. */
function shape(nodes: AdfNode[] | undefined): unknown[] {
  return (nodes ?? []).map((n) => ({
    type: n.type,
    ...(n.text === undefined ? {} : { text: n.text }),
    ...(n.marks === undefined ? {} : { marks: n.marks.map((m) => (m.type === 'link' ? `link:${String(m.attrs?.href)}` : m.type)) }),
    ...(n.type === 'heading' ? { level: n.attrs?.level } : {}),
    ...(n.type === 'codeBlock' ? { language: n.attrs?.language } : {}),
    ...(n.type === 'mention' ? { id: n.attrs?.id, mention: n.attrs?.text } : {}),
    ...(n.content === undefined ? {} : { content: shape(n.content) }),
  }));
}

describe('Markdown and the Atlassian Document Format (Jira Cloud)', () => {
  it('turns headings, marks, links, nested lists, code, tables, quotes and mentions into ADF nodes', () => {
    const doc = markdownToAdf(MARKDOWN);
    expect(doc).to.include({ version: 1, type: 'doc' });
    expect(doc.content.map((n) => n.type)).to.deep.equal(['heading', 'paragraph', 'heading', 'orderedList', 'codeBlock', 'table', 'blockquote']);
    const paragraph = shape(doc.content[1]!.content);
    expect(paragraph).to.deep.include({ type: 'text', text: 'checkout', marks: ['strong'] });
    expect(paragraph).to.deep.include({ type: 'text', text: '--dry-run', marks: ['code'] });
    expect(paragraph).to.deep.include({ type: 'text', text: 'the runbook', marks: ['link:https://wiki.acme.example/x/AYAC'] });
    expect(paragraph).to.deep.include({ type: 'mention', id: '5b10a2844c20165700ede21g', mention: '@Mia Krystof' });
    expect(shape([doc.content[4]!])).to.deep.equal([
      { type: 'codeBlock', language: 'bash', content: [{ type: 'text', text: '# a comment, not a heading\ndeploy --to 2025.03 *all*' }] },
    ]);
    const header = doc.content[5]!.content![0]!.content!.map((cell) => cell.type);
    expect(header).to.deep.equal(['tableHeader', 'tableHeader']);
  });

  it('reads back exactly the Markdown it was given', () => {
    expect(adfToMarkdown(markdownToAdf(MARKDOWN))).to.equal(MARKDOWN);
  });

  it('reads a Jira description (with ids, layout attributes and a status lozenge) as Markdown, and writes that back to the same document', () => {
    const description = (JSON.parse(payload('jira/issue-adf.json')) as { fields: { description: { content: AdfNode[] } } }).fields.description;
    const markdown = adfToMarkdown(description);
    expect(markdown).to.equal(
      [
        '## What happens',
        '',
        'The gateway answers `502` once the cart has more than **50** items; see the [dashboard](https://grafana.acme.example/d/checkout). [@Mia Krystof](mention:5b10a2844c20165700ede21g) is on it.',
        '',
        '1. Add 51 items to the cart',
        '2. Check out',
        '   - with a saved card',
        '   - as a guest',
        '',
        '```json',
        '{\n  "status": 502,\n  "upstream": "cart-service"\n}',
        '```',
        '',
        '| Items | Result |',
        '| ----- | ------ |',
        '| 50    | 200    |',
        '| 51    | 502    |',
        '',
        'Status: BLOCKED',
      ].join('\n'),
    );
    // The status lozenge has no Markdown: it reads as its text, the only difference on the way back.
    const back = shape(markdownToAdf(markdown).content);
    const original = shape(description.content);
    (original[original.length - 1] as { content: unknown[] }).content = [{ type: 'text', text: 'Status: BLOCKED' }];
    expect(back).to.deep.equal(original);
  });

  it('keeps a mention stable both ways, whatever the name holds', () => {
    const markdown = 'Ping [@Zoë \\[ops\\]](mention:557058:f58131cb-b67d-43c7-b30d-6b58d40bd077) now.';
    const doc = markdownToAdf(markdown);
    expect(shape(doc.content[0]!.content)).to.deep.include({ type: 'mention', id: '557058:f58131cb-b67d-43c7-b30d-6b58d40bd077', mention: '@Zoë [ops]' });
    expect(adfToMarkdown(doc)).to.equal(markdown);
    const unnamed = { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'mention', attrs: { id: '5b10a2844c20165700ede21g' } }] }] };
    expect(adfToMarkdown(unnamed)).to.equal('[@5b10a2844c20165700ede21g](mention:5b10a2844c20165700ede21g)');
  });

  it('reads what is not a document as text or nothing', () => {
    expect(adfToMarkdown(null)).to.equal('');
    expect(adfToMarkdown('plain')).to.equal('plain');
    expect(adfToMarkdown({ type: 'doc', version: 1, content: [{ type: 'extension', attrs: { extensionKey: 'jira-chart' } }] })).to.equal('');
  });
});

describe('Markdown and Jira wiki markup (Jira Data Center and Server)', () => {
  it('writes headings, marks, links, lists, code, tables and mentions as wiki markup', () => {
    expect(markdownToWiki(MARKDOWN)).to.equal(
      [
        'h1. Release 2025.03',
        '',
        'Ship *checkout* with _care_, {{--dry-run}} first; see [the runbook|https://wiki.acme.example/x/AYAC] and ask [~5b10a2844c20165700ede21g].',
        '',
        'h2. Steps',
        '',
        '# Freeze the train',
        '# Roll out',
        '** the API',
        '** the workers',
        '',
        '{code:bash}',
        '# a comment, not a heading',
        'deploy --to 2025.03 *all*',
        '{code}',
        '|| Service || Owner ||',
        '| api     | Mia   |',
        '',
        'bq. Never roll back the migration.',
      ].join('\n'),
    );
  });

  it('reads a Data Center description back as Markdown, code and mentions untouched by the list and heading rules', () => {
    const description = (JSON.parse(payload('jira/dc-issue.json')) as { fields: { description: string } }).fields.description;
    expect(wikiToMarkdown(description)).to.equal(
      [
        '## Steps',
        '',
        '1. Renew the certificate in Vault',
        '1. Roll the agents',
        '',
        '```bash',
        '# check the expiry',
        'openssl x509 -enddate -noout -in agent.pem',
        '```',
        '',
        '',
        '|Agent|Expires|',
        '| --- | --- |',
        '|build-01|2025-03-01|',
        '',
        '[@jsmith](mention:jsmith) please take this; see [runbook](https://wiki.acme.example/display/OPS/TLS).',
      ].join('\n'),
    );
  });

  it('round-trips headings, flat lists, code, links, tables and mentions', () => {
    const markdown = [
      '## Rotate',
      '',
      '* one',
      '* two',
      '',
      '```yaml',
      '# not a heading',
      '* not a bullet',
      '```',
      '',
      'Ask [@jsmith](mention:jsmith) or read [the doc](https://wiki.acme.example/TLS), `inline *code*`.',
      '',
      '| A | B |',
      '| --- | --- |',
      '| 1 | 2 |',
    ].join('\n');
    expect(wikiToMarkdown(markdownToWiki(markdown))).to.equal(markdown);
  });

  it('reads {code:title=...|language=...} and {noformat} as fenced code, and Cloud-style [~accountid:...] mentions', () => {
    const wiki =
      '{code:title=Build.java|language=java}\nint x = 1; // *not bold*\n{code}\n{noformat}\n# raw\n{noformat}\nby [~accountid:5b10a2844c20165700ede21g]';
    expect(wikiToMarkdown(wiki)).to.equal(
      '```java\nint x = 1; // *not bold*\n```\n```\n# raw\n```\nby [@5b10a2844c20165700ede21g](mention:5b10a2844c20165700ede21g)',
    );
  });
});
