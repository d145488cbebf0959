import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountsApi, AuthModal, newPerson, type Person, Shell } from './support/auth.page.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { useE2e } from './support/suite.js';

const THEMES = ['light', 'dark'] as const;

describe('look and accessibility of the shell, home and auth modal', () => {
  const suite = useE2e({ mail: true });
  let admin: Person;

  beforeAll(async () => {
    admin = newPerson('Ada');
    await new AccountsApi(suite.server.url, suite.mail).signUp(admin);
    fs.mkdirSync(artifactsDir, { recursive: true });
  });

  async function page(theme: (typeof THEMES)[number], width = 1440, height = 900): Promise<Page> {
    const created = await suite.page({ viewport: { width, height }, colorScheme: theme });
    created.on('pageerror', (error) => {
      throw error;
    });
    return created;
  }

  const shot = (p: Page, name: string) =>
    p.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

  async function signIn(p: Page) {
    await p.goto(suite.server.url);
    const modal = new AuthModal(p);
    await modal.open();
    await modal.logIn(admin.email, admin.password);
    await new Shell(p).waitForToast('Logged in successfully');
    await modal.dialog.waitFor({ state: 'detached' });
  }

  for (const theme of THEMES) {
    it(`has no serious or critical axe findings, signed out, in the ${theme} theme`, async () => {
      const p = await page(theme);
      for (const route of ['/', '/map', '/spotify', '/profile']) {
        await p.goto(`${suite.server.url}${route}`);
        await p.getByRole('heading', { level: 1 }).waitFor();
        expect({ route, violations: await seriousA11yViolations(p) }).toEqual({ route, violations: [] });
      }
      await p.goto(suite.server.url);
      await shot(p, `home-${theme}`);

      const modal = new AuthModal(p);
      await modal.open();
      expect(await seriousA11yViolations(p)).toEqual([]);
      await shot(p, `auth-modal-login-${theme}`);
      await modal.dialog.getByRole('tab', { name: 'Sign Up' }).click();
      expect(await seriousA11yViolations(p)).toEqual([]);
      await shot(p, `auth-modal-signup-${theme}`);
      await modal.dialog.getByRole('tab', { name: 'Log In' }).click();
      await modal.dialog.getByRole('button', { name: 'Forgot password?' }).click();
      await p.getByRole('dialog', { name: 'Forgot Password' }).waitFor();
      expect(await seriousA11yViolations(p)).toEqual([]);
      await shot(p, `auth-modal-forgot-${theme}`);
      await p.close();
    });

    it(`has no serious or critical axe findings, signed in, in the ${theme} theme`, async () => {
      const p = await page(theme, 1600);
      await signIn(p);
      for (const route of ['/', '/map', '/spotify', '/profile']) {
        await p.goto(`${suite.server.url}${route}`);
        await p.getByRole('heading', { level: 1 }).waitFor();
        expect({ route, violations: await seriousA11yViolations(p) }).toEqual({ route, violations: [] });
      }
      // The pages with the most shared parts: tiles with pills, switches and selects; the users table.
      for (const [route, ready] of [
        ['/devices', 'article.device-tile'],
        ['/users', '.users-row[data-user-id]'],
      ] as const) {
        await p.goto(`${suite.server.url}${route}`);
        await p.locator(ready).first().waitFor();
        expect({ route, violations: await seriousA11yViolations(p) }).toEqual({ route, violations: [] });
        await shot(p, `${route.slice(1)}-${theme}`);
      }
      await p.goto(suite.server.url);
      await p.getByRole('heading', { name: 'Welcome back, Ada!👋' }).waitFor();
      await shot(p, `home-signed-in-${theme}`);
      await p.getByRole('button', { name: /^Account menu for/ }).click();
      await p.getByRole('menu').waitFor();
      expect(await seriousA11yViolations(p)).toEqual([]);
      await shot(p, `profile-popover-${theme}`);
      await p.close();
    });

    it(`fits a 360 px phone in the ${theme} theme, menu included`, async () => {
      const p = await page(theme, 360, 780);
      await p.goto(suite.server.url);
      await p.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(p, `home-phone-${theme}`);
      await p.getByRole('button', { name: 'Open menu' }).click();
      await p.getByRole('navigation', { name: 'Main menu' }).waitFor({ state: 'visible' });
      expect(await seriousA11yViolations(p)).toEqual([]);
      await shot(p, `menu-phone-${theme}`);
      const modalPage = await page(theme, 360, 780);
      await modalPage.goto(suite.server.url);
      await new AuthModal(modalPage).open();
      await shot(modalPage, `auth-modal-phone-${theme}`);
      await p.close();
      await modalPage.close();
    });
  }

  it('keeps focus inside the auth modal, closes on Escape, outside click and ×, and locks scrolling', async () => {
    const p = await page('light', 1280, 600);
    await p.goto(suite.server.url);
    const modal = new AuthModal(p);
    await modal.open();
    expect(await p.evaluate(() => document.body.style.overflow)).toBe('hidden');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    for (let i = 0; i < 12; i++) {
      await p.keyboard.press('Tab');
      expect(await p.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await p.keyboard.press('Shift+Tab');
      expect(await p.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    }
    await p.keyboard.press('Escape');
    await modal.dialog.waitFor({ state: 'detached' });
    expect(await p.evaluate(() => document.body.style.overflow)).toBe('');

    await modal.open();
    await p.mouse.click(10, 590);
    await modal.dialog.waitFor({ state: 'detached' });

    await modal.open();
    await modal.dialog.getByRole('button', { name: 'Close' }).click();
    await modal.dialog.waitFor({ state: 'detached' });
    await p.close();
  });

  it('scrolls the forecast 80 px per arrow and by dragging, and flips the sample switch', async () => {
    const p = await page('light', 360, 780);
    await p.goto(suite.server.url);
    const row = p.locator('.forecast-row');
    await p.getByRole('button', { name: 'Scroll forecast right' }).click();
    await p.waitForFunction(() => document.querySelector('.forecast-row')?.scrollLeft === 80);
    await p.getByRole('tab', { name: 'Week' }).click();
    expect(await row.getByRole('listitem').allTextContents()).toHaveLength(7);
    expect(await row.evaluate((el) => el.scrollLeft)).toBe(0);
    const box = (await row.boundingBox())!;
    await p.mouse.move(box.x + box.width - 10, box.y + box.height / 2);
    await p.mouse.down();
    await p.mouse.move(box.x + box.width - 60, box.y + box.height / 2, { steps: 5 });
    await p.mouse.up();
    expect(await row.evaluate((el) => el.scrollLeft)).toBe(60);

    const power = p.getByRole('switch', { name: 'Living Room Lamp power' });
    expect(await power.getAttribute('aria-checked')).toBe('true');
    await power.click();
    expect(await power.getAttribute('aria-checked')).toBe('false');
    await p.close();
  });
});
