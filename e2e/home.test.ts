import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir } from './support/browser.js';
import { useE2e } from './support/suite.js';

describe('home page in Chromium', () => {
  const suite = useE2e();

  it('greets a signed-out visitor with "Welcome back!"', async () => {
    const page = await suite.page();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(suite.server.url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back!');
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'home-signed-out.png') });
    expect(errors).toEqual([]);
  });

  it('redirects an unknown route to /', async () => {
    const page = await suite.page();
    await page.goto(`${suite.server.url}/no/such/page`);
    await page.waitForURL(`${suite.server.url}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome back!');
  });
});
