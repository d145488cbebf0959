import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, launchBrowser } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

describe('home page in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('greets a signed-out visitor with "Welcome back!"', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(server.url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back!');
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'home-signed-out.png') });
    expect(errors).toEqual([]);
  });

  it('redirects an unknown route to /', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome back!');
  });
});
