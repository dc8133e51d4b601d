import { expect } from 'chai';
import Type from 'typebox';
import { UpstreamClient } from '../../../core/http/upstream-client.js';
import type { ToolContext, ToolOutput } from '../../../core/plugin/tool-context.js';
import type { DevtoolsPlugin } from '../../../core/plugin/contract.js';
import { Plugin, Tool } from '../../../core/plugin/decorators.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const PathArgs = Type.Object({ path: Type.String() }, { additionalProperties: false });

/** A third-party client as docs/plugins.md builds one; `examplePath` is what its plugin declares, if anything. */
function thirdPartyClient(vendor: string, label: string, examplePath?: string): UpstreamClient {
  return new UpstreamClient({
    vendor,
    label,
    baseUrl: 'https://api.example.invalid',
    auth: () => ({ authorization: 'Bearer x' }),
    missingCredentials: '',
    secretMaterial: () => 'x',
    credentialLabel: 'TOKEN',
    environment: 'production',
    ...(examplePath !== undefined ? { examplePath } : {}),
    timeoutMs: 1000,
    maxBytes: 1024,
    retries: 0,
  });
}

@Plugin({ name: 'acme', version: '1.0.0' })
class AcmePlugin implements DevtoolsPlugin {
  readonly upstream = thirdPartyClient('acme', 'Acme', '/v1/widgets/42');

  @Tool({
    name: 'acme_get',
    title: 'Acme GET',
    description: 'GET an Acme path.',
    annotations: { readOnlyHint: true },
    input: PathArgs,
    route: (a) => ({ method: 'GET', path: a.path }),
  })
  async get(ctx: ToolContext<typeof PathArgs>): Promise<ToolOutput> {
    return { value: ctx.route.path };
  }
}

@Plugin({ name: 'plain', version: '1.0.0' })
class PlainPlugin implements DevtoolsPlugin {
  readonly upstream = thirdPartyClient('plain', 'Plain');

  @Tool({
    name: 'plain_get',
    title: 'Plain GET',
    description: 'GET a Plain path.',
    annotations: { readOnlyHint: true },
    input: PathArgs,
    route: (a) => ({ method: 'GET', path: a.path }),
  })
  async get(ctx: ToolContext<typeof PathArgs>): Promise<ToolOutput> {
    return { value: ctx.route.path };
  }
}

describe('a refused path names an example of its own vendor, not GitHub’s (core/http path check)', () => {
  let kernel: TestKernel;

  before(async () => {
    kernel = await startTestKernel({
      plugins: [AcmePlugin, PlainPlugin],
      configFile: { content: JSON.stringify({ plugins: ['github', 'circleci', 'jira', 'confluence', 'bitbucket'] }) },
      env: {
        GITHUB_TOKEN: 'ghp_path-example-canary',
        CIRCLECI_TOKEN: 'CCIPAT_path-example-canary',
        ATLASSIAN_SITE_NAME: 'acme',
        ATLASSIAN_USER_EMAIL: 'bot@example.com',
        ATLASSIAN_API_TOKEN: 'path-example-token',
      },
    });
  });
  after(async () => {
    await kernel?.close();
  });

  const examples: Array<[tool: string, example: string]> = [
    ['github_get', '/repos/OWNER/REPO'],
    ['circleci_get', '/project/gh/ORG/REPO/pipeline'],
    ['jira_get', '/rest/api/3/issue/PROJ-1'],
    ['conf_get', '/wiki/api/v2/pages/123456'],
    ['bb_get', '/repositories/WORKSPACE/REPO/pullrequests'],
    ['acme_get', '/v1/widgets/42'],
  ];
  for (const [tool, example] of examples) {
    it(`${tool}: the refusal of a ".." path suggests ${example}`, async () => {
      const text = textOf(await kernel.call(tool, { path: '/a/../b' }));
      expect(text).to.contain('it contains "." or ".." segments').and.to.contain(`Pass a relative API path such as ${example}.`);
      expect(text).to.match(/Code: invalid_path$/);
      if (tool !== 'github_get') expect(text).not.to.contain('/repos/OWNER/REPO');
    });
  }

  it('a third-party plugin that declares no example gets a generic hint naming its API', async () => {
    const text = textOf(await kernel.call('plain_get', { path: '/a/../b' }));
    expect(text).to.contain('Pass a relative path of the Plain API, starting with /.').and.not.to.contain('/repos/OWNER/REPO');
  });
});
