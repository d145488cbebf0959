import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { type HubDevice, hubDevices } from './support/devices.page.js';
import { type Account, ADA, apiCall, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const THEMES = ['light', 'dark'] as const;
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1440, height: 900 };

/** How far a box's content ends above its bottom edge (padding and border excluded), in px. */
const emptyBelow = (box: Locator) =>
  box.evaluate((element) => {
    const style = getComputedStyle(element);
    const inner =
      element.getBoundingClientRect().bottom -
      Number.parseFloat(style.paddingBottom) -
      Number.parseFloat(style.borderBottomWidth);
    const children = Array.from(element.children).filter(
      (child) => getComputedStyle(child).display !== 'none',
    );
    const end = Math.max(...children.map((child) => child.getBoundingClientRect().bottom));
    return Math.round(inner - end);
  });

/** docs/screens.md#on-a-phone and #bottom-bar with the simulator's household (issue 34 item 6). */
describe('the phone layout in Chromium', () => {
  const suite = useE2e({ env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });
  let admin: Account;
  let devices: HubDevice[];

  async function open(
    route: string,
    viewport = PHONE,
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<Page> {
    const { refreshToken } = await logIn(suite.server.url, admin.email, admin.password);
    const page = await suite.page({ viewport, colorScheme });
    page.on('pageerror', (error) => {
      throw error;
    });
    await gotoWithToken(page, suite.server.url, refreshToken, route);
    await page.getByRole('button', { name: `Account menu for ${admin.user_name}` }).waitFor();
    return page;
  }
  const bar = (page: Page) => page.getByRole('navigation', { name: 'Shortcuts' });
  const filters = (page: Page) => page.getByRole('button', { name: /^Filters/ });

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    devices = await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.length >= 24,
    );
    const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
    const call = (method: string, route: string, body: unknown) =>
      apiCall<{ id: string }>(suite.server.url, method, route, body, accessToken);
    const idOf = (name: string) => devices.find((device) => device.name === name)!.id;
    for (const [name, icon, members] of [
      ['Living room', 'sofa', ['Living room lamp', 'Living room thermostat']],
      ['Kitchen', 'cooking-pot', ['Kitchen LED strip']],
      ['Bedroom', 'bed-double', ['Bedroom climate']],
      ['Hallway', 'door-open', ['Hallway lamp']],
    ] as const) {
      const room = await call('POST', '/api/rooms', { name, icon });
      await call('PUT', `/api/rooms/${room.data.id}/devices`, { device_ids: members.map(idOf) });
    }
    await call('PUT', '/api/favourites', { device_ids: [idOf('Living room lamp')] });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });

  for (const theme of THEMES) {
    it(`shows the first device on the first screen of the Devices page at 390 × 844 in the ${theme} theme`, async () => {
      const page = await open('/devices', PHONE, theme);
      const first = page.locator('article.device-tile').first();
      await first.waitFor();
      // Nothing scrolled: the first tile's top edge is within the first 844 px.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const top = (await first.boundingBox())!.y;
      expect(top).toBeGreaterThan(0);
      expect(top).toBeLessThan(PHONE.height);
      // The summary is one compact row of its four figures.
      const stats = await page
        .locator('.summary-card .stat')
        .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
      expect(stats).toHaveLength(4);
      expect(new Set(stats).size).toBe(1);
      // The filters wait behind "Filters"; Manage rooms stays in view.
      const room = page.getByLabel('Room', { exact: true });
      expect(await room.isVisible()).toBe(false);
      expect(await filters(page).getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('button', { name: 'Manage rooms' }).isVisible()).toBe(true);
      // Tiles are as tall as what they hold.
      for (const tile of (await page.locator('article.device-tile').all()).slice(0, 3))
        expect(await emptyBelow(tile)).toBeLessThanOrEqual(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await page.screenshot({ path: path.join(artifactsDir, `phone-devices-${theme}.png`) });
    });
  }

  it('opens the filters behind "Filters", which counts those that are on', async () => {
    const page = await open('/devices');
    await page.locator('article.device-tile').first().waitFor();
    await filters(page).click();
    expect(await filters(page).getAttribute('aria-expanded')).toBe('true');
    const status = page.getByLabel('Status', { exact: true });
    await status.waitFor();
    expect(await page.getByLabel('Room', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Group by room').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Filters', exact: true }).count()).toBe(1);
    await status.selectOption('online');
    await page.waitForURL(/status=online/);
    await page.getByLabel('Battery low').check();
    // The badge shows the number; its accessible name says it.
    await page.getByRole('button', { name: 'Filters (2 on)', exact: true }).waitFor();
    expect(await page.locator('.toolbar-filters-count').textContent()).toBe('2');
    // Closed again, the count stays and "Clear filters" is still at hand.
    await filters(page).click();
    expect(await status.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByRole('button', { name: 'Filters', exact: true }).waitFor();
  });

  it('keeps the wide toolbar and no bottom bar at 1440 px', async () => {
    const page = await open('/devices', DESK);
    await page.locator('article.device-tile').first().waitFor();
    expect(await filters(page).isVisible()).toBe(false);
    expect(await page.getByLabel('Room', { exact: true }).isVisible()).toBe(true);
    expect(await bar(page).isVisible()).toBe(false);
  });

  for (const theme of THEMES) {
    it(`has a bottom bar with Home, Devices, Activity and the menu at 390 px in the ${theme} theme`, async () => {
      const page = await open('/devices', PHONE, theme);
      await page.locator('article.device-tile').first().waitFor();
      await bar(page).waitFor();
      expect(await bar(page).getByRole('link').allTextContents()).toEqual(['Home', 'Devices', 'Activity']);
      expect(await bar(page).getByRole('link', { name: 'Devices' }).getAttribute('aria-current')).toBe(
        'page',
      );
      const barTop = (await bar(page).boundingBox())!.y;
      expect(barTop + (await bar(page).boundingBox())!.height).toBeCloseTo(PHONE.height, 0);
      expect(await seriousA11yViolations(page, 'nav[aria-label="Shortcuts"]')).toEqual([]);

      // The page ends above the bar: scrolled to the bottom (again while the virtualised grid
      // measures its rows and grows), the last tile is not underneath it.
      const atBottom = await eventually(
        () =>
          page.evaluate(() => {
            const before = window.scrollY;
            window.scrollTo(0, document.documentElement.scrollHeight);
            const last = Array.from(document.querySelectorAll('main article.device-tile')).at(-1);
            return { moved: window.scrollY !== before, end: last ? last.getBoundingClientRect().bottom : 0 };
          }),
        (state) => !state.moved,
      );
      expect(atBottom.end).toBeLessThanOrEqual(barTop);

      // Menu opens the sidebar; Escape closes it.
      const menu = bar(page).getByRole('button', { name: 'Menu' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: 'Users' })
        .waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await eventually(
        () => menu.getAttribute('aria-expanded'),
        (expanded) => expanded === 'false',
      );

      await bar(page).getByRole('link', { name: 'Activity' }).click();
      await page.waitForURL(/\/activity$/);
      await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
      expect(await bar(page).getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe(
        'page',
      );
      await page.screenshot({ path: path.join(artifactsDir, `phone-bottom-bar-${theme}.png`) });
    });
  }

  it("puts home's room cards two to a row on a phone, each only as tall as its facts", async () => {
    const page = await open('/');
    const cards = page.getByRole('region', { name: 'Rooms' }).locator('article.room-card');
    await cards.nth(3).waitFor();
    const boxes = await Promise.all(
      [0, 1, 2, 3].map(async (index) => (await cards.nth(index).boundingBox())!),
    );
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
    for (const box of boxes) expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    for (let index = 0; index < 4; index++) expect(await emptyBelow(cards.nth(index))).toBeLessThanOrEqual(1);
    expect(await seriousA11yViolations(page, 'main')).toEqual([]);
  });
});
