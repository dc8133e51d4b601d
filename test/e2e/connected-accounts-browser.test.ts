import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'chai';
import { launchChromium, screenshot, VIEWPORTS } from '../console/support/browser.js';
import { startBrowserLinking, type BrowserLinking } from '../support/identity/browser-linking.js';

const TOKENS = { alice: 'tok-alice-browser-link-4d2e90' };

describe('"Connected accounts" in Chromium: Connect Atlassian Cloud, consent, back through /identity/callback/atlassian, Disconnect', function () {
  this.timeout(90_000);
  let d: BrowserLinking;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every request the browser made, with the Referer it sent. */
  const requests: Array<{ url: string; referer: string | undefined }> = [];

  before(async () => {
    d = await startBrowserLinking(TOKENS);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: VIEWPORTS.laptop });
    context.on('request', (r) => requests.push({ url: r.url(), referer: r.headers().referer }));
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await d?.close();
  });

  it('links the account the person consented with, and lists it', async () => {
    await page.goto(`${d.base}/console/accounts`);
    await page.fill('input[name=token]', TOKENS.alice);
    await page.click('form.signin button');
    await page.waitForURL(`${d.base}/console/accounts`);
    expect(await page.textContent('main')).to.include('No linked accounts yet.');

    d.atlassian.signInAs('alice');
    await page.click('button:has-text("Connect Atlassian Cloud")');
    // The consent page is Atlassian's (another site); it signs in, consents and redirects back to the callback.
    await page.click('a:has-text("Continue to Atlassian Cloud")');
    await page.waitForURL(/\/console\/accounts\/finish\?attempt=/, { timeout: 20_000 });
    expect(await page.textContent('.banner')).to.equal('Linked Atlassian Cloud as alice@acme.example.');
    const row = page.locator('tr[data-vendor=atlassian]');
    expect(await row.locator('strong').textContent()).to.equal('alice@acme.example');
    expect(await row.textContent()).to.include('https://acme.atlassian.net');
    await screenshot(page, 'accounts-linked-laptop');

    const callback = requests.find((r) => r.url.startsWith(`${d.base}/identity/callback/atlassian?`))!;
    expect(callback, 'the vendor sent the browser to the callback').to.not.equal(undefined);
    const code = new URL(callback.url).searchParams.get('code')!;
    // The callback's URL (code and state) is sent to no one as a Referer, and appears in no later URL.
    const after = requests.slice(requests.indexOf(callback) + 1);
    expect(after.filter((r) => r.referer?.includes('/identity/callback/'))).to.deep.equal([]);
    expect(after.filter((r) => r.url.includes(code))).to.deep.equal([]);
  });

  it('disconnects it', async () => {
    await page.click('tr[data-vendor=atlassian] button:has-text("Disconnect")');
    await page.waitForURL(`${d.base}/console/accounts/atlassian/disconnect`);
    expect(await page.textContent('.banner')).to.equal('Disconnected Atlassian Cloud.');
    expect(await page.textContent('main')).to.include('No linked accounts yet.');
    expect(await page.locator('button:has-text("Connect Atlassian Cloud")').count()).to.equal(1);
  });
});
