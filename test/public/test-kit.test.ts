import { expect } from 'chai';
import { Plugin, Tool, Type, inject, TOKENS, type Settings, type ToolOutput } from 'mcp-devtools/plugin';
import { startTestKernel, textOf } from 'mcp-devtools/testing';

@Plugin({ name: 'acme-kit', version: '1.0.0', settings: Type.Object({ ACME_KIT_COLOUR: Type.String({ default: 'blue' }) }) })
class AcmeKitPlugin {
  constructor(@inject(TOKENS.Settings) private readonly settings: Settings) {}

  @Tool({ name: 'acme_colour', title: 'Colour', description: 'The configured colour.', annotations: { readOnlyHint: true }, input: Type.Object({}) })
  async colour(): Promise<ToolOutput> {
    return { value: this.settings.get<string>('ACME_KIT_COLOUR') };
  }
}

describe('test kit: startTestKernel', () => {
  afterEach(() => {
    delete process.env.ACME_KIT_COLOUR;
  });

  it('starts the given plugins beside the cross-cutting ones, and no built-in vendor', async () => {
    const kernel = await startTestKernel({ plugins: [AcmeKitPlugin] });
    try {
      const served = kernel.kernel.listTools().map((t) => t.name);
      expect(served).to.include('acme_colour');
      // artifact_read follows the tools that can save an artifact: acme_colour cannot, so it is not offered.
      expect(served).not.to.include('artifact_read');
      expect(kernel.kernel.plugins).to.include.members(['projection', 'toon', 'truncation', 'structured', 'artifacts', 'acme-kit']);
      expect(kernel.kernel.plugins).not.to.include.any.members(['github', 'circleci', 'jira', 'confluence', 'bitbucket']);
    } finally {
      await kernel.close();
    }
  });

  it('reads settings only from what it is given, never from the real environment', async () => {
    process.env.ACME_KIT_COLOUR = 'red';
    const defaults = await startTestKernel({ plugins: [AcmeKitPlugin] });
    const given = await startTestKernel({ plugins: [AcmeKitPlugin], env: { ACME_KIT_COLOUR: 'green' } });
    try {
      expect(textOf(await defaults.call('acme_colour'))).to.equal('blue');
      expect(textOf(await given.call('acme_colour'))).to.equal('green');
    } finally {
      await defaults.close();
      await given.close();
    }
  });

  it("captures the kernel's log lines", async () => {
    const kernel = await startTestKernel({ plugins: [AcmeKitPlugin] });
    await kernel.close();
    const started = kernel.logs.map((line) => JSON.parse(line) as { msg: string; plugins?: string[] }).find((l) => l.msg === 'kernel started');
    expect(started?.plugins).to.include('acme-kit');
  });

  it('connects the v2 SDK client in-process, negotiating 2026-07-28, or a 2025-era one when asked', async () => {
    const kernel = await startTestKernel({ plugins: [AcmeKitPlugin] });
    try {
      const latest = await kernel.connect();
      const legacy = await kernel.connect({ mode: 'legacy' });
      expect([latest.getNegotiatedProtocolVersion(), legacy.getNegotiatedProtocolVersion()]).to.deep.equal(['2026-07-28', '2025-11-25']);
      for (const client of [latest, legacy]) expect(textOf((await client.callTool({ name: 'acme_colour', arguments: {} })) as never)).to.equal('blue');
    } finally {
      await kernel.close();
    }
  });
});
