import { expect } from 'chai';
import { canary } from '../support/canaries.js';
import { docsPolicyExample } from '../support/enterprise-fixture.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { ConsoleDeployment, heldApproval, textOf } from './support/console-deployment.js';

const SECRET = 'whsec-preview-5c2e8a41';
const TRIGGER = 'circleci_trigger_pipeline';

/** The docs' policy, with the typed pipeline trigger held for approval like `circleci_post`. */
const policy = (): string => {
  const example = docsPolicyExample();
  const held = 'match: { tools: ["*_delete", circleci_post] }';
  if (!example.includes(held)) throw new Error('the worked example of docs/policy.md no longer holds circleci_post this way');
  return example.replace(held, 'match: { tools: ["*_delete", circleci_post, circleci_trigger_pipeline] }');
};

describe('a held pipeline trigger: what the webhook receiver is sent, what the console shows (built server, SQLite)', function () {
  this.timeout(90_000);
  let d: ConsoleDeployment;
  let receiver: WebhookReceiver;
  let olga: ConsoleClient;
  // A deploy token an agent passes as a pipeline parameter: it must reach CircleCI, and nobody and nothing else.
  const deployToken = canary('dtok-');

  before(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    d = await ConsoleDeployment.start({
      store: 'sqlite',
      policy: policy(),
      vendors: 'circleci',
      env: { MCP_APPROVAL_WEBHOOK_URL: receiver.url, MCP_APPROVAL_WEBHOOK_SECRET: SECRET, MCP_EGRESS_ALLOW: receiver.egressAllow },
    });
    olga = await ConsoleClient.signIn(d.base, d.tokens.olga);
  });
  after(async () => {
    await d?.close();
    await receiver?.close();
  });

  const args = { projectSlug: 'gh/acme/app', branch: 'main', parameters: { DEPLOY_TOKEN: deployToken, deploy_env: 'production', RELEASE_CHANNEL: 'canary-7' } };

  it("sends the receiver the parameters' names, never their values, in a signed event; the console shows approvers the values, less the token", async () => {
    const id = heldApproval(await d.call('rene', TRIGGER, args));
    await receiver.waitFor('the held event', (r) => r.events.some((e) => e.id === `${id}.held`));

    // The event arrived signed (the receiver's events are those the docs' verifier accepted).
    const post = receiver.posts.find((p) => p.headers['mcp-devtools-event-id'] === `${id}.held`)!;
    expect(post.verified).to.have.property('type', 'approval.held');
    const event = receiver.events.find((e) => e.id === `${id}.held`)!;
    expect(event.approval.tool).to.equal(TRIGGER);
    expect(event.approval.arguments).to.deep.equal({
      projectSlug: 'gh/acme/app',
      branch: 'main',
      parameters: { DEPLOY_TOKEN: '[REDACTED]', deploy_env: '[WITHHELD]', RELEASE_CHANNEL: '[WITHHELD]' },
    });
    expect(event.approval.redacted).to.deep.equal(['parameters.DEPLOY_TOKEN']);
    expect(event.approval.withheld).to.deep.equal(['parameters']);
    expect(post.body).not.to.include(deployToken);
    expect(post.body).not.to.include('canary-7');

    // The console, behind sign-in, shows what the call will send, the token hidden.
    const page = (await olga.get(`/console/approvals/${id}`)).text;
    expect(page).to.include('<li data-key="branch"><span class="key">branch</span> <code class="value">&quot;main&quot;</code></li>');
    expect(page).to.include(
      '<li data-key="parameters"><span class="key">parameters</span> <code class="value">{&quot;DEPLOY_TOKEN&quot;:&quot;[REDACTED]&quot;,&quot;deploy_env&quot;:&quot;production&quot;,&quot;RELEASE_CHANNEL&quot;:&quot;canary-7&quot;}</code></li>',
    );
    expect(page).to.include('<p class="muted redactions">Hidden from approvers: parameters.DEPLOY_TOKEN</p>');
    expect(page).to.include('<p class="muted withheld">Values not sent to webhook receivers: parameters</p>');
    expect(page).not.to.include(deployToken);

    // Signed out, the same page is the sign-in.
    const away = await new ConsoleClient(d.base).get(`/console/approvals/${id}`);
    expect([away.status, away.headers.get('location')]).to.deep.equal([303, '/console/signin']);
  });

  it('once granted, the retry sends the token to CircleCI, and the grant event withholds the values as well', async () => {
    const id = heldApproval(await d.call('rene', TRIGGER, args));
    const confirm = await olga.get(`/console/approvals/${id}/grant`);
    const granted = await olga.post(`/console/approvals/${id}/grant`, { reason: 'Release 4.2.', confirmed: 'yes' }, { csrf: csrfOf(confirm.text) });
    expect(granted.status).to.equal(303);
    const ran = await d.call('rene', TRIGGER, args);
    expect(ran.isError, textOf(ran)).to.equal(undefined);
    const sent = d.circleci.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/project/gh/acme/app/pipeline');
    expect(sent.map((r) => JSON.parse(r.body))).to.deep.equal([{ branch: 'main', parameters: args.parameters }]);

    await receiver.waitFor('the grant event', (r) => r.events.some((e) => e.id === `${id}.granted`));
    const grant = receiver.events.find((e) => e.id === `${id}.granted`)!;
    expect(grant.decision).to.include({ by: 'olga', reason: 'Release 4.2.' });
    expect((grant.approval.arguments as { parameters: unknown }).parameters).to.deep.equal({
      DEPLOY_TOKEN: '[REDACTED]',
      deploy_env: '[WITHHELD]',
      RELEASE_CHANNEL: '[WITHHELD]',
    });
    expect(receiver.posts.some((p) => p.body.includes(deployToken))).to.equal(false);
  });
});
