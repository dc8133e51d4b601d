// The start-up code file is ASCII (rollup/ascii-source.mjs): Node decodes it from UTF-8 on every start, and one
// character outside ASCII sends the whole 2 MB through the slow two-byte path (about 6-10 ms of each start here).
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

type AsciiSource = (code: string, warn: (message: string) => void) => string;

const asciiSourceStep = async (): Promise<AsciiSource> =>
  ((await import(pathToFileURL(join(REPO_ROOT, 'rollup/ascii-source.mjs')).href)) as { asciiSource: AsciiSource }).asciiSource;

describe('the start-up code is ASCII', () => {
  it('in the built start-up code file, whose bundled packages have dashes, arrows and section signs in comments and strings', () => {
    const chunks = join(REPO_ROOT, 'dist/chunks');
    const codeFile = readdirSync(chunks).find((name) => /^startup-[\w-]+\.code\.js$/.test(name));
    expect(codeFile, 'a start-up code file in dist/chunks').to.be.a('string');
    const bytes = readFileSync(join(chunks, codeFile!));
    const firstOutside = bytes.findIndex((byte) => byte > 0x7f);
    expect(isAscii(bytes), `a byte outside ASCII at ${firstOutside}: ${bytes.subarray(Math.max(0, firstOutside - 40), firstOutside + 8).toString()}`).to.equal(
      true,
    );
  });

  it('escapes comments, string literals and untagged templates to the same values, line for line', async () => {
    const asciiSource = await asciiSourceStep();
    const code = [
      '(function () { // a comment — with an em dash',
      "  const single = 'pino – redact';",
      '  const double = "→ arrow 🚀 and \\u00e9 é";',
      '  const n = 2; const template = `${n} … ${"ü"} ’`;',
      '  /* § block ⇒ */ return [single, double, template];',
      '})',
    ].join('\n');
    const warnings: string[] = [];
    const escaped = asciiSource(code, (message) => warnings.push(message));
    expect(isAscii(Buffer.from(escaped))).to.equal(true);
    expect(warnings).to.deep.equal([]);
    expect(escaped.split('\n').length).to.equal(code.split('\n').length);
    expect((runInNewContext(escaped) as () => string[])()).to.deep.equal((runInNewContext(code) as () => string[])());
  });

  it('leaves what an escape could change, a tagged template read raw or a regular expression, and says so', async () => {
    const asciiSource = await asciiSourceStep();
    const code = '(function () { return [String.raw`a — b`, /é+/.source, "ok —"]; })';
    const warnings: string[] = [];
    const escaped = asciiSource(code, (message) => warnings.push(message));
    expect((runInNewContext(escaped) as () => string[])()).to.deep.equal(['a — b', 'é+', 'ok —']);
    expect(escaped).to.include('String.raw`a — b`').and.to.include('/é+/');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/2 characters outside ASCII left/);
  });

  it('returns ASCII code as it is', async () => {
    const asciiSource = await asciiSourceStep();
    const code = '(function () { return "plain"; })';
    expect(asciiSource(code, () => expect.fail('no warning for ASCII code'))).to.equal(code);
  });
});
