import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { StartupError } from '../../../core/errors/tool-error.js';
import { InvalidDocumentError } from '../../../core/schema/yaml-document.js';
import { readPolicyDocument } from '../../../plugins/policy/document/policy-document.js';
import { PolicySource, STABLE_READ_MS } from '../../../plugins/policy/policy-source.js';
import { capturedLogger } from '../../support/auth-fixture.js';
import { tempFile } from '../../support/enterprise-fixture.js';

const RULES = [
  '  - { id: no-deletes, effect: deny, match: { tools: ["*_delete"] } }',
  '  - { id: reads, effect: allow, match: { readOnly: true } }',
  '  - { id: writes, effect: allow, match: { groups: [developers] } }',
];
const doc = (rules: string[]): string => `version: 1\nrules:\n${rules.join('\n')}\n`;

describe('policy file: empty except, and a file caught half-written', () => {
  for (const except of ['{}', '{ args: {} }']) {
    it(`refuses "except: ${except}", which would silently turn its rule off, naming the line`, () => {
      const text = `version: 1\nrules:\n  - id: no-deletes\n    effect: deny\n    match: { tools: ["*_delete"] }\n    except: ${except}\n`;
      const error = (() => {
        try {
          readPolicyDocument(text, 'policy.yaml');
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).to.be.instanceOf(InvalidDocumentError);
      expect((error as Error).message).to.equal(
        'policy.yaml line 6: rules[0].except: is empty, so it always holds and the rule would never apply. Give the conditions under which the rule does not apply, or remove except.',
      );
    });
  }

  it('refuses to start on such a document, and keeps the last good one when a reload brings one', async () => {
    const bad = tempFile('policy.yaml', `version: 1\nrules:\n  - { id: d, effect: deny, except: {} }\n`);
    expect(await PolicySource.open(bad, '/', capturedLogger().logger).catch((e: unknown) => e)).to.be.instanceOf(StartupError);
    const path = tempFile('policy.yaml', doc(RULES));
    const { logger, lines } = capturedLogger();
    const source = await PolicySource.open(path, '/', logger);
    const version = source.current.version;
    writeFileSync(path, `version: 1\nrules:\n  - { id: d, effect: deny, except: {} }\n`);
    await source.check();
    expect(source.current.version).to.equal(version);
    expect(lines.some((l) => l.includes('policy file changed but is invalid') && l.includes('except: is empty'))).to.equal(true);
  });

  it('never takes a file caught half-written for the whole: it waits until two reads agree', async () => {
    const path = tempFile('policy.yaml', doc(RULES.slice(1)));
    const { logger, lines } = capturedLogger();
    const source = await PolicySource.open(path, '/', logger);
    // An editor writing the new version in two steps: the first alone is a valid document with one rule.
    const half = doc(RULES.slice(0, 1));
    const whole = doc(RULES);
    writeFileSync(path, half);
    const checking = source.check();
    setTimeout(() => writeFileSync(path, whole), STABLE_READ_MS / 3);
    await checking;
    expect(source.current.policy.document.rules.map((r) => r.id)).to.deep.equal(['no-deletes', 'reads', 'writes']);
    const halfVersion = readPolicyDocument(half, 'half').version;
    expect(lines.filter((l) => l.includes(halfVersion))).to.deep.equal([]);
    source.stop();
  });
});
