import { expect } from 'chai';
import Type from 'typebox';
import { LOCAL_PRINCIPAL } from '../../../core/identity/principal.js';
import { PagedEnvelope, ReadEnvelope } from '../../../core/schema/envelopes.js';
import { clientAccepts, FIRST_REVISION_WITH_ANY_ROOT, isObjectRooted } from '../../../plugins/structured/protocol-gate.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';
import { structuredFixtureConfig } from './structured-fixtures.js';

const ArrayRooted = Type.Array(Type.Integer());
const OLDER = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

describe('protocol gate for non-object-rooted schemas', () => {
  describe('the gate, given the negotiated revision', () => {
    it('sends object-rooted schemas to every client, whatever the revision', () => {
      for (const version of [undefined, ...OLDER, FIRST_REVISION_WITH_ANY_ROOT, 'not-a-date']) {
        expect(clientAccepts(PagedEnvelope, version), String(version)).to.equal(true);
        expect(clientAccepts(ReadEnvelope, version), String(version)).to.equal(true);
      }
    });

    it('withholds a non-object-rooted schema below 2026-07-28 and from clients of unknown revision', () => {
      expect(isObjectRooted(ArrayRooted)).to.equal(false);
      for (const version of [undefined, ...OLDER, '2026-07-27', 'not-a-date', '']) expect(clientAccepts(ArrayRooted, version), String(version)).to.equal(false);
    });

    it('sends it from 2026-07-28 on', () => {
      for (const version of ['2026-07-28', '2026-12-01', '2027-01-15']) expect(clientAccepts(ArrayRooted, version), version).to.equal(true);
    });
  });

  describe('a third-party plugin with an array-rooted envelope, in the kernel', () => {
    let kernel: TestKernel;

    before(async () => {
      kernel = await startTestKernel({ configFile: structuredFixtureConfig(), env: { MCP_STRUCTURED_OUTPUT: 'true' } });
    });
    after(async () => {
      await kernel.close();
    });

    const listed = (version: string | undefined) => kernel.kernel.listTools(version).find((t) => t.name === 'faulty_array_root')!;
    const call = (version: string | undefined) => kernel.kernel.call('faulty_array_root', {}, LOCAL_PRINCIPAL, { protocolVersion: version });

    it('lists the tool without outputSchema, and answers text only, below 2026-07-28', async () => {
      for (const version of [undefined, '2025-11-25']) {
        expect(listed(version)).not.to.have.property('outputSchema');
        const result = await call(version);
        expect(result).not.to.have.property('structuredContent');
        expect(textOf(result)).to.equal('[3]: 3,1,2');
      }
    });

    it('advertises the schema and sends the bare structured value from 2026-07-28', async () => {
      expect(listed('2026-07-28').outputSchema).to.deep.equal({ type: 'array', items: { type: 'integer' } });
      const result = await call('2026-07-28');
      expect(result.structuredContent).to.deep.equal([3, 1, 2]);
      expect(textOf(result)).to.equal('[3]: 3,1,2');
    });

    it('leaves object-rooted tools unaffected by the revision', async () => {
      for (const version of [undefined, '2025-11-25', '2026-07-28']) {
        const entry = kernel.kernel.listTools(version).find((t) => t.name === 'faulty_no_value')!;
        expect(entry.outputSchema?.type, String(version)).to.equal('object');
      }
    });
  });
});
