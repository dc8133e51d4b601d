import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { ConsoleAnswer, ConsolePageRequest, ConsolePages, KernelView } from '../../../core/plugin/contributions.js';
import { systemClock } from '../../../core/store/key-value-store.js';
import { accountsConsole } from '../../../plugins/identity/console/accounts-console.js';
import type { MockUpstream } from '../../../server/testing/mock-upstream.js';
import { dataCenterMocks } from '../../support/identity/data-center-mocks.js';
import { startTestKernel, textOf, type TestKernel } from '../../support/test-kernel.js';

const PAT = 'circleci-console-token-5e2a97c1';
const viewer = { subject: 'alice', groups: ['developers'], via: 'tokens', role: 'viewer', csrf: 'csrf-of-alices-session' };

function request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): ConsolePageRequest {
  return { method, path, query: new URLSearchParams(), viewer, ...(form === undefined ? {} : { form: new URLSearchParams(form) }) };
}

function bodyOf(answer: ConsoleAnswer | undefined): string {
  if (answer === undefined || !('body' in answer)) throw new Error(`not a page: ${JSON.stringify(answer)}`);
  return String(answer.body);
}

describe('The console page "Connected accounts"', function () {
  this.timeout(20_000);
  let mock: MockUpstream;
  let kernel: TestKernel;
  let pages: ConsolePages;

  before(async () => {
    mock = await dataCenterMocks({ jira: 'u1', confluence: 'u2', bitbucket: 'u3', circleci: PAT });
    kernel = await startTestKernel({
      configFile: { content: JSON.stringify({ plugins: ['circleci'] }) },
      env: { MCP_TOOLSETS: 'all', CIRCLECI_BASE_URL: mock.url, CIRCLECI_CREDENTIALS: 'user', MCP_VAULT_KEY: randomBytes(32).toString('hex') },
    });
    pages = await accountsConsole({
      kernel: kernel.kernel as unknown as KernelView,
      logger: undefined as never,
      clock: systemClock,
      url: 'https://mcp.acme.example',
    });
  });
  after(async () => {
    await kernel?.close();
    await mock?.close();
  });

  it('links a personal token typed into its form and shows the account without the token', async () => {
    const empty = bodyOf(await pages.answer(request('GET', '/console/accounts')));
    expect(empty).to.include('No linked accounts yet.').and.include('action="/console/accounts/circleci/token"');
    const linked = await pages.answer(request('POST', '/console/accounts/circleci/token', { token: PAT }));
    expect(linked).to.have.nested.property('banner.text', 'Linked CircleCI as alice.');
    const shown = bodyOf(linked);
    expect(shown).to.include('<strong>alice</strong>').and.include('does not expire');
    expect(shown).not.to.include(PAT);
  });

  it('refuses a token the vendor does not accept, in the sentence, with nothing kept', async () => {
    const refused = await pages.answer(request('POST', '/console/accounts/circleci/token', { token: 'wrong' }));
    expect(refused).to.have.nested.property('banner.text', 'CircleCI refused the personal access token; check it and enter it again (HTTP_401).');
  });

  it('names this page in the refusal of a call of someone who has not linked', async () => {
    const result = await kernel.call('circleci_pipeline_status', { projectSlug: 'gh/acme/app' }, { subject: 'bob', groups: [], via: 'tokens' });
    expect(textOf(result)).to.include('You have not linked your CircleCI account yet; link it at https://mcp.acme.example/console/accounts.');
    expect(mock.requests.filter((r) => r.path.startsWith('/api/v2/project'))).to.have.length(0);
  });

  it('disconnects, and the next call of that person is refused at once', async () => {
    const done = await pages.answer(request('POST', '/console/accounts/circleci/disconnect'));
    expect(done).to.have.nested.property('banner.text', 'Disconnected CircleCI.');
    expect(bodyOf(done)).to.include('No linked accounts yet.');
  });
});
