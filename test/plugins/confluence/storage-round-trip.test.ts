import { expect } from 'chai';
import { markdownToStorage, storageToMarkdown } from '../../../plugins/confluence/storage.js';
import { payload } from '../../fixtures/atlassian/corpus-kit.js';

/** Markdown as the storage reader writes it, with every construct the tools promise to keep. */
const MARKDOWN = [
  '# Checkout runbook',
  '',
  'Run `deploy rollback` & tell [@Mia Krystof](mention:5b10a2844c20165700ede21g) in [#checkout](https://acme.slack.com/archives/C024BE91L).',
  '',
  '1.  Freeze the train',
  '2.  Roll back',
  '    -   the API',
  '    -   the workers',
  '',
  '```bash',
  '# never roll back the migration',
  'deploy rollback --to 2025.02 <api>',
  '```',
  '',
  '| Step | Owner |',
  '| --- | --- |',
  '| Freeze | Release captain |',
].join('\n');

const contentBody = (name: string): string => (JSON.parse(payload(name)) as { body: { storage: { value: string } } }).body.storage.value;

describe('Markdown and Confluence storage XHTML', () => {
  it('writes code as the code macro and a mention as a user link, well-formed XHTML throughout', () => {
    const storage = markdownToStorage(MARKDOWN, 'cloud');
    expect(storage).to.contain(
      '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">bash</ac:parameter><ac:plain-text-body><![CDATA[# never roll back the migration\ndeploy rollback --to 2025.02 <api>]]></ac:plain-text-body></ac:structured-macro>',
    );
    expect(storage).to.contain(
      'tell <ac:link><ri:user ri:account-id="5b10a2844c20165700ede21g" /><ac:plain-text-link-body><![CDATA[@Mia Krystof]]></ac:plain-text-link-body></ac:link> in <a href="https://acme.slack.com/archives/C024BE91L">#checkout</a>',
    );
    expect(storage).to.contain('<h1>Checkout runbook</h1>');
    expect(storage).to.contain('<table>\n<thead>\n<tr>\n<th>Step</th>');
    expect(storage).to.contain('<ol>\n<li>Freeze the train</li>\n<li>Roll back\n<ul>');
  });

  it('names a Data Center user by user key when the id is one, else by user name', () => {
    expect(markdownToStorage('[@Jan](mention:8a7f808a6e5d2b4b016e5d2d3a6b0001)', 'datacenter')).to.contain(
      '<ri:user ri:userkey="8a7f808a6e5d2b4b016e5d2d3a6b0001" />',
    );
    expect(markdownToStorage('[@Jan](mention:jsmith)', 'datacenter')).to.contain('<ri:user ri:username="jsmith" />');
  });

  it('never passes HTML through from the Markdown, and keeps "]]>" inside code intact', () => {
    const storage = markdownToStorage('<ac:structured-macro ac:name="html">x</ac:structured-macro>\n\n```\na ]]> b\n```', 'cloud');
    expect(storage).to.contain('<p>&lt;ac:structured-macro ac:name=&quot;html&quot;&gt;x&lt;/ac:structured-macro&gt;</p>');
    expect(storage).to.contain('<![CDATA[a ]]]]><![CDATA[> b]]>');
    expect(storageToMarkdown(storage)).to.contain('```\na ]]> b\n```');
  });

  it('reads back exactly the Markdown it was given', () => {
    expect(storageToMarkdown(markdownToStorage(MARKDOWN, 'cloud'))).to.equal(MARKDOWN);
  });

  it("reads a page written by Confluence's editor: code macro, bare mention, paragraphs in list items, header row, other macros' text", () => {
    expect(storageToMarkdown(contentBody('confluence/content-page.json'))).to.equal(
      [
        '## Rollback',
        '',
        'Run `deploy rollback --to 2025.02` & tell [@5b10a2844c20165700ede21g](mention:5b10a2844c20165700ede21g) in [#checkout](https://acme.slack.com/archives/C024BE91L).',
        '',
        '1.  Freeze the release train',
        '2.  Roll back',
        '    -   the API',
        '    -   the workers',
        '',
        '```bash',
        '# never roll back the DB migration',
        'deploy rollback --to 2025.02 --service api',
        '```',
        '',
        '| **Step** | **Owner** |',
        '| --- | --- |',
        '| Freeze | Release captain |',
        '',
        'Page the on-call first.',
      ].join('\n'),
    );
    expect(storageToMarkdown(contentBody('confluence/dc-content-page.json'))).to.equal(
      'Escalate to [@8a7f808a6e5d2b4b016e5d2d3a6b0001](mention:8a7f808a6e5d2b4b016e5d2d3a6b0001).\n\n```\npagerduty trigger --service build\n```',
    );
  });

  it('reads a mention written here back with its name', () => {
    const markdown = 'Ask [@Mia Krystof](mention:5b10a2844c20165700ede21g) first.';
    expect(storageToMarkdown(markdownToStorage(markdown, 'cloud'))).to.equal(markdown);
    expect(storageToMarkdown(markdownToStorage(markdown.replace('5b10a2844c20165700ede21g', 'mkrystof'), 'datacenter'))).to.equal(
      markdown.replace('5b10a2844c20165700ede21g', 'mkrystof'),
    );
  });

  it('reads an empty body as empty Markdown', () => {
    expect(storageToMarkdown('')).to.equal('');
    expect(storageToMarkdown(undefined)).to.equal('');
  });
});
