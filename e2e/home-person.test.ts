import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir, closePages } from './support/browser.js';
import { type HubDevice, hubDevices } from './support/devices.page.js';
import { type Account, ADA, apiCall, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const THEMES = ['light', 'dark'] as const;
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const NO_ACCESS = 'No devices are shared with you yet. Ask an admin for access.';

/** Home, signed in as `account`, in a browser context of its own (another browser of the person). */
async function openHome(
  base: string,
  newPage: (options: object) => Promise<Page>,
  account: Account,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
) {
  const { refreshToken } = await logIn(base, account.email, account.password);
  const page = await newPage({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await gotoWithToken(page, base, refreshToken);
  await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
  return { page, errors };
}

const headings = (page: Page) => page.locator('main h2').allTextContents();
const examples = (page: Page) => page.getByRole('region', { name: 'Examples' });

/** docs/screens.md#examples on a fresh install: no device anywhere (no simulator, no bus). */
describe('home on a fresh install in Chromium', () => {
  const suite = useE2e({ env: { SIMULATOR: 'off' } });
  let admin: Account;
  let plain: Account;
  const open = (account: Account, options?: Parameters<typeof openHome>[3]) =>
    openHome(suite.server.url, (o) => suite.page(o), account, options);

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    plain = await signUp(suite.server.url, { first_name: 'Uma', last_name: 'Plain', user_name: 'uma' });
    fs.mkdirSync(artifactsDir, { recursive: true });
  });

  it('puts SPEC\'s sample tiles first under "Examples" while there is no device', async () => {
    const { page, errors } = await open(admin);
    await examples(page).getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
    // The live part has said it has nothing: the hint follows the examples.
    await page.getByText(/Star devices and sort them into rooms/).waitFor();
    expect((await headings(page))[0]).toBe('Examples');
    // Every sample tile is there, as SPEC gives it.
    for (const text of [
      'Partly cloudy',
      'Living Room Lamp',
      'Midnight City',
      'Bedroom Sensor',
      'MAP',
      'Add Device',
    ])
      await examples(page).getByText(text, { exact: true }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it('hides the examples for the person, in every browser of theirs, until they show them again', async () => {
    const { page } = await open(admin);
    await examples(page).waitFor();
    await page.getByRole('button', { name: 'Hide examples' }).click();
    await examples(page).waitFor({ state: 'detached' });
    const show = page.getByRole('button', { name: 'Show examples' });
    // The keyboard focus stays with the choice.
    await eventually(
      () => page.evaluate(() => document.activeElement?.textContent),
      (text) => text === 'Show examples',
    );
    expect(await page.getByRole('switch', { name: 'Living Room Lamp power' }).count()).toBe(0);

    // Remembered on the server: another browser, and this one after a reload, open without them.
    const other = await open(admin);
    await other.page.getByRole('button', { name: 'Show examples' }).waitFor();
    expect(await examples(other.page).count()).toBe(0);
    const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
    expect(
      (await apiCall(suite.server.url, 'GET', '/api/auth/preferences', undefined, accessToken)).data,
    ).toEqual({
      hide_examples: true,
    });
    // Someone else's home keeps them.
    const uma = await open(plain);
    await examples(uma.page).waitFor();

    await show.click();
    await examples(page).getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
    await eventually(
      () => page.evaluate(() => document.activeElement?.textContent),
      (text) => text === 'Hide examples',
    );
    const reloaded = await open(admin);
    await examples(reloaded.page).waitFor();
  });

  it('tells a `user` without access to ask an admin, above the examples', async () => {
    const { page, errors } = await open(plain);
    await page.getByText(NO_ACCESS).waitFor();
    await examples(page).waitFor();
    expect(await headings(page)).toEqual(['Examples']);
    expect(await page.getByRole('region', { name: 'Favourites' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  for (const theme of THEMES) {
    for (const viewport of WIDTHS) {
      it(`shows, hides and shows again the examples at ${viewport.width} px in the ${theme} theme`, async () => {
        const { page, errors } = await open(admin, { viewport, colorScheme: theme });
        await examples(page).getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
        expect((await headings(page))[0]).toBe('Examples');
        expect(await seriousA11yViolations(page, 'main')).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.screenshot({
          path: path.join(artifactsDir, `home-examples-${viewport.width}-${theme}.png`),
        });
        // The page shows a choice at once and saves it after; each is saved before the next, so the
        // two changes never race each other to the server, and the next test starts from "shown".
        const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
        const saved = (hidden: boolean) =>
          eventually(
            async () =>
              (await apiCall(suite.server.url, 'GET', '/api/auth/preferences', undefined, accessToken)).data,
            (preferences) => (preferences as { hide_examples?: boolean }).hide_examples === hidden,
          );
        await page.getByRole('button', { name: 'Hide examples' }).click();
        await page.getByRole('button', { name: 'Show examples' }).waitFor();
        expect(await examples(page).count()).toBe(0);
        expect(await seriousA11yViolations(page, 'main')).toEqual([]);
        await saved(true);
        await page.getByRole('button', { name: 'Show examples' }).click();
        await examples(page).getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
        await saved(false);
        expect(errors).toEqual([]);
      });
    }
  }

  it('shows a signed-out visitor the examples without "Hide examples"', async () => {
    const page = await suite.page();
    await page.goto(suite.server.url);
    await examples(page).getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
    expect(await page.getByRole('button', { name: 'Hide examples' }).count()).toBe(0);
  });
});

/** docs/screens.md#home with the simulator's household: examples below, a `user`'s own home. */
describe('home for every person in Chromium', () => {
  const suite = useE2e({ env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });
  let admin: Account;
  let kid: Account;
  let stranger: Account;
  let devices: HubDevice[];
  let living: { id: string };
  let bedroom: { id: string };
  const pages: Page[] = [];
  const open = async (account: Account, options?: Parameters<typeof openHome>[3]) => {
    const opened = await openHome(suite.server.url, (o) => suite.page(o), account, options);
    pages.push(opened.page);
    return opened;
  };
  const api = async <T>(method: string, route: string, body?: unknown, as: Account = admin) => {
    const { accessToken } = await logIn(suite.server.url, as.email, as.password);
    return apiCall<T>(suite.server.url, method, route, body, accessToken);
  };
  const idOf = (name: string) => {
    const device = devices.find((candidate) => candidate.name === name);
    if (!device) throw new Error(`no device named ${name}`);
    return device.id;
  };
  const roomCard = (page: Page, name: string) =>
    page.getByRole('region', { name: 'Rooms' }).locator(`article[aria-label="${name}"]`);

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    kid = await signUp(suite.server.url, { first_name: 'Kit', last_name: 'Young', user_name: 'kit' });
    stranger = await signUp(suite.server.url, { first_name: 'Sam', last_name: 'Away', user_name: 'sam' });
    devices = await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) =>
        ['Living room lamp', 'Bedroom climate', 'Kitchen LED strip'].every((name) =>
          list.some((device) => device.name === name),
        ),
    );
    living = (await api<{ id: string }>('POST', '/api/rooms', { name: 'Living room', icon: 'sofa' })).data;
    bedroom = (await api<{ id: string }>('POST', '/api/rooms', { name: 'Bedroom', icon: 'bed-double' })).data;
    const kitchen = (
      await api<{ id: string }>('POST', '/api/rooms', { name: 'Kitchen', icon: 'cooking-pot' })
    ).data;
    await api('PUT', `/api/rooms/${living.id}/devices`, { device_ids: [idOf('Living room lamp')] });
    await api('PUT', `/api/rooms/${bedroom.id}/devices`, { device_ids: [idOf('Bedroom climate')] });
    await api('PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [idOf('Kitchen LED strip')] });
    await api('PUT', '/api/favourites', { device_ids: [idOf('Living room lamp')] });
    // The kid may control the living room and view the bedroom; the kitchen is not theirs.
    const rules = await api('PUT', `/api/access/${kid.id}`, {
      user_id: kid.id,
      rooms: { [living.id]: 'control', [bedroom.id]: 'view' },
      devices: {},
    });
    expect(rules.status).toBe(200);
    expect((await api('PUT', '/api/favourites', { device_ids: [idOf('Bedroom climate')] }, kid)).status).toBe(
      200,
    );
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(() => closePages(pages));

  it("puts the examples below a resident's or admin's favourites and rooms", async () => {
    const { page, errors } = await open(admin);
    await roomCard(page, 'Kitchen').waitFor();
    await examples(page).waitFor();
    expect(await headings(page)).toEqual(['Favourites', 'Rooms', 'Examples']);
    expect(errors).toEqual([]);
  });

  it('gives a `user` with access rules their favourites and the rooms they may see, without room actions', async () => {
    const { page, errors } = await open(kid);
    const favourites = page.getByRole('region', { name: 'Favourites' });
    await favourites.locator('article[aria-label="Bedroom climate"]').waitFor();
    await roomCard(page, 'Living room').waitFor();
    await roomCard(page, 'Bedroom').waitFor();
    await examples(page).waitFor();
    expect(await headings(page)).toEqual(['Favourites', 'Rooms', 'Examples']);
    expect(await roomCard(page, 'Kitchen').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^All off in/ }).count()).toBe(0);
    expect(await page.getByText(NO_ACCESS).count()).toBe(0);
    expect(await page.getByText(/Star devices/).count()).toBe(0);
    // The living room's lamp is theirs to control: its room card counts it, the link leads to it.
    expect(
      await roomCard(page, 'Living room')
        .getByRole('link', { name: 'Show devices in Living room' })
        .getAttribute('href'),
    ).toMatch(/^\/devices\?room=[^&]+&group=room$/);
    expect(errors).toEqual([]);
  });

  it('tells a `user` without rules to ask an admin, and nothing of the household', async () => {
    const { page } = await open(stranger);
    await page.getByText(NO_ACCESS).waitFor();
    await examples(page).waitFor();
    expect(await headings(page)).toEqual(['Examples']);
  });

  for (const theme of THEMES) {
    for (const viewport of WIDTHS) {
      it(`has no serious axe findings for a user's home at ${viewport.width} px in the ${theme} theme`, async () => {
        const { page } = await open(kid, { viewport, colorScheme: theme });
        await roomCard(page, 'Bedroom').waitFor();
        await examples(page).waitFor();
        expect(await seriousA11yViolations(page, 'main')).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await page.screenshot({
          path: path.join(artifactsDir, `home-user-${viewport.width}-${theme}.png`),
          fullPage: true,
        });
      });
    }
  }
});
