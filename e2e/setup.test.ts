import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS } from '../server/test/mail-catcher.js';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { hubDevices } from './support/devices.page.js';
import {
  type Account,
  ADA,
  apiCall,
  gotoWithToken,
  logIn,
  SettingsPage,
  signUp,
} from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** docs/screens.md#manage-rooms, docs/rooms.md#selection and the security card's 2FA (issue 34 item 4). */
describe('setting up in Chromium', () => {
  const suite = useE2e({ mail: true, env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });
  let admin: Account;

  const api = async <T>(method: string, route: string, body?: unknown, as: Account = admin) => {
    const { accessToken } = await logIn(suite.server.url, as.email, as.password);
    return apiCall<T>(suite.server.url, method, route, body, accessToken);
  };
  async function open(
    account: Account,
    route: string,
    viewport: { width: number; height: number } = { width: 1440, height: 900 },
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<Page> {
    const { refreshToken } = await logIn(suite.server.url, account.email, account.password);
    const page = await suite.page({ viewport, colorScheme });
    page.on('pageerror', (error) => {
      throw error;
    });
    await gotoWithToken(page, suite.server.url, refreshToken, route);
    await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
    return page;
  }
  const manageRooms = async (page: Page) => {
    await page.locator('article.device-tile').first().waitFor();
    await page.getByRole('button', { name: 'Manage rooms' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage rooms' });
    await dialog.waitFor();
    return dialog;
  };

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.length >= 24,
    );
    fs.mkdirSync(artifactsDir, { recursive: true });
  });

  it("guesses a new room's icon from its name, until one is chosen, and starts over after adding", async () => {
    const page = await open(admin, '/devices');
    const dialog = await manageRooms(page);
    const name = dialog.getByLabel('New room name', { exact: true });
    const icon = dialog.getByLabel('Icon of the new room', { exact: true });
    expect(await icon.inputValue()).toBe('house');
    await name.fill('Kitchen');
    expect(await icon.inputValue()).toBe('cooking-pot');
    await name.fill('Guest bathroom');
    expect(await icon.inputValue()).toBe('bath');
    await dialog.getByRole('button', { name: 'Add room' }).click();
    await dialog.getByLabel('Name of Guest bathroom', { exact: true }).waitFor();
    // Reset for the next room: an empty name and the default icon.
    expect(await name.inputValue()).toBe('');
    expect(await icon.inputValue()).toBe('house');
    await name.fill('Kitchen');
    await dialog.getByRole('button', { name: 'Add room' }).click();
    await dialog.getByLabel('Name of Kitchen', { exact: true }).waitFor();
    // An icon chosen by hand stays whatever the name says.
    await icon.selectOption('sun');
    await name.fill('Hallway');
    expect(await icon.inputValue()).toBe('sun');
    await dialog.getByRole('button', { name: 'Add room' }).click();
    await dialog.getByLabel('Name of Hallway', { exact: true }).waitFor();
    const rooms = (await api<{ rooms: { name: string; icon: string }[] }>('GET', '/api/rooms')).data.rooms;
    expect(rooms.map((room) => [room.name, room.icon])).toEqual([
      ['Guest bathroom', 'bath'],
      ['Kitchen', 'cooking-pot'],
      ['Hallway', 'sun'],
    ]);
  });

  it('lays each room out on one row (icon, name, floor), ruled off from the next', async () => {
    await api('POST', '/api/floors', { name: 'Ground floor' });
    const page = await open(admin, '/devices');
    const dialog = await manageRooms(page);
    await dialog.getByLabel('Floor of Kitchen', { exact: true }).waitFor();
    const rows = dialog.locator('.manage-list--rooms > li');
    expect(await rows.count()).toBe(3);
    for (const room of ['Guest bathroom', 'Kitchen', 'Hallway']) {
      const row = rows.filter({ has: page.getByLabel(`Name of ${room}`, { exact: true }) });
      const boxes = await Promise.all(
        [`Icon of ${room}`, `Name of ${room}`, `Floor of ${room}`].map(
          async (label) => (await row.getByLabel(label, { exact: true }).boundingBox())!,
        ),
      );
      // One line, left to right: the icon, the name, the floor.
      const middles = boxes.map((box) => box.y + box.height / 2);
      expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
      expect(boxes[0]!.x < boxes[1]!.x && boxes[1]!.x < boxes[2]!.x).toBe(true);
    }
    // A rule between rows.
    const rule = await rows.nth(1).evaluate((row) => getComputedStyle(row).borderTopWidth);
    expect(rule).toBe('1px');
    // The columns line up from row to row.
    const nameLefts = await Promise.all(
      ['Guest bathroom', 'Kitchen', 'Hallway'].map(
        async (room) => (await dialog.getByLabel(`Name of ${room}`, { exact: true }).boundingBox())!.x,
      ),
    );
    expect(new Set(nameLefts).size).toBe(1);
  });

  it('"Select all shown" picks every device the filter shows', async () => {
    const page = await open(admin, '/devices?q=lamp');
    const shown = page.locator('article.device-tile');
    await shown.first().waitFor();
    const count = await shown.count();
    expect(count).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const bar = page.getByRole('region', { name: 'Select' });
    await bar.getByText('0 selected').waitFor();
    await bar.getByRole('button', { name: 'Select all shown' }).click();
    await bar.getByText(`${count} selected`).waitFor();
    expect(await bar.getByRole('button', { name: 'Select all shown' }).isDisabled()).toBe(true);
    const checked = await page
      .getByRole('checkbox', { name: /^Select / })
      .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
    expect(checked).toEqual(Array(count).fill(true));
  });

  it('turns 2FA on only for a verified address, and off again with the password', async () => {
    const mark = suite.mail.mark();
    const gina = await signUp(suite.server.url, {
      first_name: 'Gina',
      last_name: 'Guard',
      user_name: 'gina',
    });
    const page = await open(gina, '/');
    const settings = new SettingsPage(page, gina.user_name);
    await settings.open();
    // Unverified: the button is off and says why.
    const enable = settings.button('Enable 2FA');
    expect(await enable.isDisabled()).toBe(true);
    const why = await enable.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${why}"]`).textContent()).toBe(
      'Verify your email address first: the 2FA codes are sent to it.',
    );
    // The sign-up mail's code verifies the address; then 2FA can be turned on.
    const verify = await suite.mail.code(gina.email, SUBJECTS.verifyEmail, { after: mark });
    await settings.field('Verification Code').fill(verify);
    await settings.button('Confirm Email').click();
    await settings.expectStatus('✅ Email verified successfully!');
    await eventually(
      () => enable.isEnabled(),
      (enabled) => enabled,
    );
    expect(await page.getByText('Verify your email address first').count()).toBe(0);
    const before = suite.mail.mark();
    await enable.click();
    await settings.expectStatus('Check your email for the 2FA code.');
    await settings
      .field('2FA Code')
      .fill(await suite.mail.code(gina.email, SUBJECTS.twoFactorSetup, { after: before }));
    await settings.button('Enable 2FA').click();
    await settings.expectStatus('✅ 2FA enabled successfully!');

    // Off: the password is asked for; a wrong one is refused in the dialog.
    await settings.button('Turn off 2FA').click();
    const confirm = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
    await confirm.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await confirm.getByLabel('Password', { exact: true }).fill('not-the-password-7');
    await confirm.getByRole('button', { name: 'Turn off 2FA' }).click();
    await confirm.getByRole('alert').getByText('Current password is incorrect').waitFor();
    await confirm.getByLabel('Password', { exact: true }).fill(gina.password);
    await confirm.getByRole('button', { name: 'Turn off 2FA' }).click();
    await confirm.waitFor({ state: 'detached' });
    await settings.expectStatus('2FA turned off');
    await settings.dialog.getByText('Disabled', { exact: true }).waitFor();
    await settings.button('Enable 2FA').waitFor();
    // Signing in needs only the password again.
    const start = await apiCall<Record<string, unknown>>(suite.server.url, 'POST', '/api/auth/login/start', {
      email: gina.email,
      password: gina.password,
    });
    expect(start.data['2fa_required']).toBe(false);
  });

  for (const theme of THEMES) {
    for (const viewport of WIDTHS) {
      it(`has no serious axe findings in Manage rooms at ${viewport.width} px in the ${theme} theme`, async () => {
        const page = await open(admin, '/devices', viewport, theme);
        const dialog = await manageRooms(page);
        await dialog.getByLabel('New room name', { exact: true }).fill('Nursery');
        expect(await dialog.getByLabel('Icon of the new room', { exact: true }).inputValue()).toBe('baby');
        expect(await seriousA11yViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.screenshot({
          path: path.join(artifactsDir, `manage-rooms-rows-${viewport.width}-${theme}.png`),
        });
      });
    }
  }
});
