import { expect } from 'chai';
import { connectStdio } from '../support/sdk-client.js';

describe('initialize carries short server instructions', () => {
  it('tells the model to project with jq, page with nextPage, read spills with artifact_read and check isError first', async () => {
    const session = await connectStdio();
    try {
      const instructions = session.client.getInstructions() ?? '';
      expect(instructions).to.match(/`jq`, a JMESPath expression/);
      expect(instructions).to.match(/`nextPage`.*`page`/);
      expect(instructions).to.match(/`artifact_read`.*`nextOffset`.*`eof`/);
      expect(instructions).to.match(/Check `isError` before `structuredContent`/);
      // Clients put them in every session's context: they stay short.
      expect(instructions.length).to.be.below(1000);
    } finally {
      await session.close();
    }
  });
});
