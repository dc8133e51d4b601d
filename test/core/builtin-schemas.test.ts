import { expect } from 'chai';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import type { ToolOutput } from '../../core/plugin/tool-context.js';
import { Plugin, Tool } from '../../core/plugin/decorators.js';
import { readToolSpecs } from '../../core/plugin/metadata.js';
import { schemaProblems } from '../../core/schema/schema-check.js';
import { CROSS_CUTTING, isBuiltinPlugin, VENDORS } from '../../server/bootstrap/builtin-plugins.js';
import { startTestKernel } from '../support/test-kernel.js';

@Plugin({ name: 'third-party-bad-schema', version: '1.0.0' })
class ThirdPartyBadSchema {
  @Tool({
    name: 'third_party_tool',
    title: 'Bad',
    description: 'b',
    annotations: { readOnlyHint: true },
    input: Type.Object({ a: { type: 'strng' } as never }),
  })
  async run(): Promise<ToolOutput> {
    return { value: 'never' };
  }
}

// Start-up trusts the built-in plugins' schemas (it neither checks them against the meta-schema nor compiles
// them before a tool's first call); this is what makes that safe.
describe('built-in tool schemas (checked here, not at start-up)', () => {
  for (const [name, load] of Object.entries({ ...CROSS_CUTTING, ...VENDORS })) {
    it(`${name}: every input and envelope schema is valid JSON Schema 2020-12 and compiles`, async () => {
      const cls = await load();
      expect(isBuiltinPlugin(cls)).to.equal(true);
      for (const { spec } of readToolSpecs(cls)) {
        expect(schemaProblems(spec.input), `${spec.name} input`).to.equal(undefined);
        expect(() => Compile(spec.input), `${spec.name} input`).to.not.throw();
        if (spec.envelope === undefined) continue;
        expect(schemaProblems(spec.envelope), `${spec.name} envelope`).to.equal(undefined);
        expect(() => Compile(spec.envelope!), `${spec.name} envelope`).to.not.throw();
      }
    });
  }

  it("still refuses a third-party plugin's invalid schema at start-up, beside the built-ins", async () => {
    expect(isBuiltinPlugin(ThirdPartyBadSchema)).to.equal(false);
    const started = startTestKernel({ plugins: [ThirdPartyBadSchema] });
    let message = '';
    await started.then(
      (kernel) => kernel.close(),
      (error: Error) => (message = error.message),
    );
    expect(message).to.match(/^Tool "third_party_tool" of plugin "third-party-bad-schema": invalid input schema: .*properties\/a\/type/);
  });
});
