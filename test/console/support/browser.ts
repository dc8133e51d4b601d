import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../support/paths.js';

/** Debian's Chromium (.ci/install-chromium puts it there); playwright-core drives it, it downloads no browser. */
export const CHROMIUM = process.env.MCP_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Where the browser tests keep their screenshots (gitignored): every page, on a laptop and on a phone. */
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'console');
/** The copies docs/console.md shows, refreshed when CONSOLE_DOCS_SCREENSHOTS=1 (npm run docs:console-screenshots). */
export const DOCS_IMAGES = join(REPO_ROOT, 'docs', 'images', 'console');

export const VIEWPORTS = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** Headless Chromium with a fresh profile, no network of its own (no updates, sync or QUIC). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: run .ci/install-chromium (apt-get install chromium), or set MCP_TEST_CHROMIUM.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * Saves a full-page screenshot as a test artifact (`<name>.png`); with CONSOLE_DOCS_SCREENSHOTS=1 and
 * `docs` set, also as the image docs/console.md shows.
 */
export async function screenshot(page: Page, name: string, docs = false): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (docs && process.env.CONSOLE_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(path, join(DOCS_IMAGES, `${name.replace(/^[a-z]+-/, '')}.png`));
  }
  return path;
}

/** What the tests read of a page's globals inside `page.evaluate` (the test build has no DOM types). */
export interface PageGlobals {
  document: {
    cookie: string;
    documentElement: { scrollWidth: number; clientWidth: number };
    querySelector(selector: string): { value: string } | null;
  };
  sameDocument?: boolean;
}

/** Whether the page scrolls sideways (it must not, on a phone either). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const { documentElement } = (globalThis as unknown as PageGlobals).document;
    return documentElement.scrollWidth > documentElement.clientWidth + 1;
  });
}
