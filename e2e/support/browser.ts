import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What Chromium's headless mode does besides our pages and we turn off: every window (each browser
 * context is one) renders the omnibox's dropdowns as WebUI pages of their own, two renderers that
 * took more CPU than a small page of ours. chromium.sh merges these with Playwright's own.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** Debian's Chromium, headless, never a downloaded browser. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: path.join(import.meta.dirname, 'chromium.sh'),
    env: { ...process.env, HEARTH_CHROMIUM: chromiumPath },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, shared by the e2e files it runs one after another (the e2e project
 * runs without module isolation): a launch costs a second or two of CPU, and every suite works in
 * contexts of its own anyway. Launched again if it went away.
 */
export async function sharedBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = launchBrowser();
  return shared;
}

/** Screenshots land here so anyone can look at what the browser saw. */
export const artifactsDir = path.resolve(import.meta.dirname, '../../artifacts');

/** Closes the pages a suite opened, each with its own context (one already gone is no error). */
export async function closePages(pages: Page[]) {
  for (const page of pages)
    await page
      .context()
      .close()
      .catch(() => {});
}
