import { expect } from 'chai';
import { asciiEscapedJson } from '../../../core/http/ascii-escaped-json.js';
import { parseJsonBytes } from '../../../core/http/parse-json-bytes.js';
import { LARGE_STRING_BYTES } from '../../../core/text/large-string.js';

/** A Jira-like page of about `bytes` bytes whose text has curly quotes, accents, an emoji and a CJK word in it. */
function pageWithText(bytes: number): Buffer {
  const issues: unknown[] = [];
  const page = { startAt: 0, issues };
  for (let i = 0; Buffer.byteLength(JSON.stringify(page)) < bytes; i++) {
    issues.push({
      key: `PLAT-${i}`,
      fields: { summary: i % 4 === 0 ? `“Crème brûlée” ${i} – 🚀 日本語` : `Issue ${i}`, description: 'plain ASCII text '.repeat(20), labels: ['ünï', 'x'] },
    });
  }
  return Buffer.from(JSON.stringify(page, null, 2), 'utf8');
}

/** JSON.parse of the escaped text gives what JSON.parse of the decoded text gives, key order included. */
function expectSameValue(bytes: Buffer, from = 0): string {
  const escaped = asciiEscapedJson(bytes, from);
  expect(escaped, 'escaped').to.be.a('string');
  expect(
    Array.from(escaped!).every((character) => character.charCodeAt(0) < 0x80),
    'ASCII only',
  ).to.equal(true);
  expect(JSON.stringify(JSON.parse(escaped!))).to.equal(JSON.stringify(JSON.parse(bytes.toString('utf8', from))));
  return escaped!;
}

describe('asciiEscapedJson: a body with characters past ASCII parsed as a one-byte text', () => {
  it('writes every character past ASCII of a 100 KB page as an escape, and JSON.parse gives the same value', () => {
    const page = pageWithText(100 * 1024);
    // Decoded, the page would be UTF-16: twice its bytes, past the size of a large string.
    expect(2 * page.length).to.be.greaterThan(LARGE_STRING_BYTES);
    const escaped = expectSameValue(page);
    expect(escaped.length).to.be.at.most(LARGE_STRING_BYTES);
    expect(escaped).to.include('\\u201cCr\\u00e8me');
    expect(escaped).to.include('\\ud83d\\ude80'); // a character past the BMP: its two UTF-16 units
  });

  it('decodes broken UTF-8 as the whole decode does: one U+FFFD where a sequence breaks, even before ASCII', () => {
    const broken = [
      [0xe2, 0x80], // a sequence cut short
      [0x80], // a continuation byte alone
      [0xff, 0xfe], // bytes UTF-8 never uses
      [0xc0, 0xaf], // an overlong "/"
      [0xed, 0xa0, 0x80], // a surrogate written as UTF-8
      [0xf0, 0x9f, 0x9a], // four bytes cut to three
      [0xe2, 0x80, 0x9c, 0xe2], // a whole character, then a cut one
    ];
    for (const bytes of broken) {
      for (const after of ['"', 'a"', '\\n"']) {
        const body = Buffer.concat([Buffer.from('{"a": "x'), Buffer.from(bytes), Buffer.from(`${after}, "b": [1]}`)]);
        expectSameValue(body);
      }
    }
  });

  it('starts where it is told (past a byte order mark) and keeps escapes the body already had', () => {
    const body = Buffer.from('\ufeff{"k\\u00e9y": "caf\\u00e9 – café", "\\\\": "\\\\ é"}', 'utf8');
    expectSameValue(body, 3);
  });

  it('leaves a body to the whole decode when a character past ASCII follows a backslash: escaped, it would mean something else', () => {
    // `"\é"` is an error; its escape after the backslash would read as an escaped backslash and a valid string.
    const body = Buffer.from('{"a": "\\é"}', 'utf8');
    expect(asciiEscapedJson(body, 0)).to.equal(undefined);
    expect(() => JSON.parse(body.toString('utf8'))).to.throw(SyntaxError);
    // One after an escaped backslash would be safe, but is not told apart: the whole decode is exact either way.
    expect(asciiEscapedJson(Buffer.from('{"a": "\\\\é"}', 'utf8'), 0)).to.equal(undefined);
    expect(parseJsonBytes(Buffer.concat([body.subarray(0, -1), Buffer.from(`, "pad": "${'é'.repeat(40_000)}"}`)]))).to.equal(undefined);
  });

  it('fails as the decoded text fails where a character past ASCII stands outside a string', () => {
    const body = Buffer.from('{"a": “quoted”}', 'utf8');
    expect(() => JSON.parse(asciiEscapedJson(body, 0)!)).to.throw(SyntaxError);
    expect(() => JSON.parse(body.toString('utf8'))).to.throw(SyntaxError);
  });

  it('gives nothing for a text that would be a large string: a big body, or one that its escapes make big', () => {
    const big = Buffer.from(JSON.stringify({ log: 'é'.repeat(LARGE_STRING_BYTES) }), 'utf8');
    expect(asciiEscapedJson(big, 0)).to.equal(undefined);
    // 30,000 CJK characters are 90 KB of UTF-8 and 180,000 characters of escapes.
    const cjk = Buffer.from(JSON.stringify({ text: '日'.repeat(30_000) }), 'utf8');
    expect(cjk.length).to.be.below(LARGE_STRING_BYTES);
    expect(asciiEscapedJson(cjk, 0)).to.equal(undefined);
    // Parsed member by member instead, to the same value.
    expect(parseJsonBytes(cjk)!.value).to.deep.equal(JSON.parse(cjk.toString('utf8')));
  });

  it('is how parseJsonBytes reads such a page: the same value, and its depth counted', () => {
    const page = pageWithText(90 * 1024);
    const parsed = parseJsonBytes(page)!;
    expect(JSON.stringify(parsed.value)).to.equal(JSON.stringify(JSON.parse(page.toString('utf8'))));
    expect(parsed.nesting).to.equal(4); // the page at level 0, then issues, an issue, its fields, their labels
    const deep = Buffer.from(JSON.stringify({ text: '“deep”'.repeat(6_000), deep: JSON.parse(`${'['.repeat(600)}${']'.repeat(600)}`) }), 'utf8');
    expect(asciiEscapedJson(deep, 0)).to.be.a('string');
    expect(parseJsonBytes(deep)!.nesting).to.be.greaterThan(512);
  });
});
