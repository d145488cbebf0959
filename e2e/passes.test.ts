import type { ActivityEntry, CreatedPass } from '@hearth/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { launchBrowser } from './support/browser.js';
import { type HubDevice, hubDevices, tileOnline } from './support/devices.page.js';
import { type RunningServer, startServer } from './support/server.js';
import {
  type Account,
  apiCall,
  axeFindings,
  openSignedIn,
  screenshotBothThemes,
  signUp,
} from './support/settings.page.js';

const HOUR = 3_600_000;

// docs/passes.md in Chromium: a guest opens the link with no account, toggles the one lamp the
// pass lets them control (the command reaches the bus), cannot control another, and loses access
// on the open page when the pass is revoked. The managers' page creates, pauses and revokes.
describe('Guest passes', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let lamp: HubDevice;
  let other: HubDevice;

  beforeAll(async () => {
    server = await startServer({ SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' });
    browser = await launchBrowser();
    admin = await signUp(server.url, { first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' });
    const devices = await eventually(
      () => hubDevices(server.url, admin),
      (list) =>
        list.some((d) => d.name === 'Living room lamp') && list.some((d) => d.name === 'Hallway lamp'),
    );
    lamp = devices.find((d) => d.name === 'Living room lamp')!;
    other = devices.find((d) => d.name === 'Hallway lamp')!;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const createPass = async (body: Record<string, unknown>) => {
    const { status, data } = await apiCall<CreatedPass>(
      server.url,
      'POST',
      '/api/passes',
      { level: 'control', ends_at: new Date(Date.now() + 2 * HOUR).toISOString(), ...body },
      admin.accessToken,
    );
    expect(status).toBe(201);
    return { pass: data, path: new URL(data.url).pathname };
  };
  const stateOf = async (id: string) => (await hubDevices(server.url, admin)).find((d) => d.id === id)!.state;
  const guestPage = async (path: string, width: number) => {
    // A fresh context: no cookie, no stored session, as on the guest's own phone.
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}${path}`);
    return { page, errors, close: () => context.close() };
  };
  const power = (page: Page, name: string) => page.getByRole('switch', { name: `Power ${name}` });

  it('lets a guest toggle the one lamp of the pass, and no other device', async () => {
    const { path } = await createPass({ label: 'Weekend guest', devices: [lamp.id] });
    const guest = await guestPage(path, 360);
    const { page } = guest;
    await page.getByRole('heading', { name: 'Weekend guest' }).waitFor();
    await power(page, lamp.name).waitFor();
    // Only the pass's device is on the page; no sidebar, no menu, no sign-in.
    expect(await page.locator('.device-tile').count()).toBe(1);
    expect(await page.locator('#sidebar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Log in' }).count()).toBe(0);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();

    await tileOnline(page.locator('.device-tile'));
    const wasOn = (await power(page, lamp.name).getAttribute('aria-checked')) === 'true';
    await power(page, lamp.name).click();
    await eventually(
      () => power(page, lamp.name).getAttribute('aria-checked'),
      (checked) => checked === String(!wasOn),
    );
    // The command reached the bus: the simulated lamp reports its new state to the hub.
    await eventually(
      () => stateOf(lamp.id),
      (state) => String(state.state).toUpperCase() === (wasOn ? 'OFF' : 'ON'),
    );

    // Another device, asked for with the pass's token: refused, and it does not change.
    const before = await stateOf(other.id);
    const refused = await page.evaluate(
      async ([url, id]) => {
        const response = await fetch(`${url}/devices/${id}/commands`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ state: { state: 'TOGGLE' } }),
        });
        return { status: response.status, body: await response.json() };
      },
      [`/api${path}`, other.id] as const,
    );
    expect(refused).toEqual({ status: 404, body: { success: false, data: null, error: 'Device not found' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await stateOf(other.id)).state).toBe(before.state);

    expect(await axeFindings(page)).toEqual([]);
    await screenshotBothThemes(page, 'pass-guest-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeFindings(page)).toEqual([]);
    await screenshotBothThemes(page, 'pass-guest-wide');
    expect(guest.errors).toEqual([]);
    await guest.close();
  });

  it('shows a view pass without controls', async () => {
    const { path } = await createPass({ label: 'Look only', devices: [lamp.id], level: 'view' });
    const guest = await guestPage(path, 1280);
    await guest.page.getByText('You can view these devices.').waitFor();
    await guest.page.locator('.device-tile').first().waitFor();
    expect(await power(guest.page, lamp.name).count()).toBe(0);
    expect(await guest.page.locator('.device-tile button, .device-tile input').count()).toBe(0);
    await guest.close();
  });

  it('takes access away from the open page when the pass is revoked', async () => {
    const { pass, path } = await createPass({ label: 'Cleaner', devices: [lamp.id] });
    const guest = await guestPage(path, 360);
    await power(guest.page, lamp.name).waitFor();
    await guest.page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const revoked = Date.now();
    const { status } = await apiCall(
      server.url,
      'DELETE',
      `/api/passes/${pass.id}`,
      undefined,
      admin.accessToken,
    );
    expect(status).toBe(204);
    await guest.page
      .getByText('This link does not work. It may have been revoked or mistyped.')
      .waitFor({ timeout: 5000 });
    const tookMs = Date.now() - revoked;
    expect(await guest.page.locator('.device-tile').count()).toBe(0);
    // The page still names the pass it was showing.
    expect(await guest.page.getByRole('heading', { level: 1 }).textContent()).toBe('Cleaner');
    expect(await axeFindings(guest.page)).toEqual([]);
    await screenshotBothThemes(guest.page, 'pass-guest-revoked');
    console.log(`revoked pass: the open page closed after ${tookMs} ms`);
    expect(tookMs).toBeLessThan(3000);
    await guest.close();
  });

  it("records the guest's page opening and its live connection, once each, and the Activity page says which", async () => {
    const { pass, path } = await createPass({ label: 'Gardener', devices: [lamp.id] });
    const guest = await guestPage(path, 360);
    await guest.page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const usesOfPass = async () =>
      (
        await apiCall<{ entries: ActivityEntry[] }>(
          server.url,
          'GET',
          '/api/activity?kind=pass.use',
          undefined,
          admin.accessToken,
        )
      ).data.entries
        .filter((entry) => entry.actor.id === pass.id)
        .map((entry) => [entry.detail.action, entry.result])
        .reverse();
    expect(await eventually(usesOfPass, (uses) => uses.length >= 2)).toEqual([
      ['open', 'ok'],
      ['connect', 'ok'],
    ]);

    const { page, errors } = await openSignedIn(browser, server.url, admin, '/activity');
    const gardener = page
      .locator('.activity-entry')
      .filter({ has: page.locator('.activity-entry__who', { hasText: 'Gardener' }) });
    await gardener.first().waitFor();
    expect(await gardener.locator('.activity-entry__summary').allTextContents()).toEqual([
      'Connecting for live updates',
      'Opening the page',
    ]);
    // Still one of each after the page has been live a while (its pass is read again each second).
    expect(await usesOfPass()).toHaveLength(2);
    expect(errors).toEqual([]);
    await page.close();
    await guest.close();
  });

  it('tells the open page at once when the pass is paused', async () => {
    const { pass, path } = await createPass({ label: 'Dog sitter', devices: [lamp.id] });
    const guest = await guestPage(path, 1280);
    await power(guest.page, lamp.name).waitFor();
    await guest.page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const paused = Date.now();
    await apiCall(server.url, 'PATCH', `/api/passes/${pass.id}`, { paused: true }, admin.accessToken);
    await guest.page
      .getByText('This pass is paused. Ask the person who shared it with you to resume it.')
      .waitFor({ timeout: 5000 });
    expect(Date.now() - paused).toBeLessThan(3000);
    expect(await guest.page.locator('.device-tile').count()).toBe(0);
    await guest.close();
  });

  it('tells a guest whose pass has not started yet when it starts', async () => {
    const starts = new Date(Date.now() + HOUR).toISOString();
    const { path } = await createPass({ label: 'Tomorrow', devices: [lamp.id], starts_at: starts });
    const guest = await guestPage(path, 360);
    await guest.page.getByText(/^This pass is not valid yet\. It starts /).waitFor();
    expect(await guest.page.locator('.device-tile').count()).toBe(0);
    await guest.close();
  });

  it('lets an admin create a pass on the Guest passes page, copy its link, pause and revoke it', async () => {
    const { page, errors } = await openSignedIn(browser, server.url, admin, '/passes');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('heading', { name: 'Guest passes', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New pass' }).click();
    const dialog = page.getByRole('dialog', { name: 'New guest pass' });
    await dialog.getByLabel('Label (optional)').fill('Plumber');
    await dialog.getByRole('checkbox', { name: lamp.name, exact: true }).check();
    await dialog.getByRole('radio', { name: 'View only' }).check();
    expect(await axeFindings(page)).toEqual([]);
    await screenshotBothThemes(page, 'passes-new', false);
    await dialog.getByRole('button', { name: 'Create pass' }).click();

    const created = page.getByRole('dialog', { name: 'Pass created' });
    const link = await created.getByLabel('Link').inputValue();
    expect(link).toMatch(/\/pass\/[A-Za-z0-9_-]{43}$/);
    await created.getByRole('button', { name: 'Copy link' }).click();
    await created.getByText('Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await created.getByRole('button', { name: 'Done' }).click();

    const row = page.locator('.pass-row', { hasText: 'Plumber' });
    await row.getByText('Active').waitFor();
    await row.getByText('View only').waitFor();
    await row.getByRole('button', { name: 'Pause Plumber' }).click();
    await row.getByText('Paused', { exact: true }).waitFor();
    const paused = await apiCall<{ status: string }>(server.url, 'GET', `/api${new URL(link).pathname}`);
    expect(paused.data.status).toBe('paused');
    await row.getByRole('button', { name: 'Resume Plumber' }).click();
    await row.getByText('Active').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await screenshotBothThemes(page, 'passes-list');
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await axeFindings(page)).toEqual([]);
    await screenshotBothThemes(page, 'passes-list-360');

    await row.getByRole('button', { name: 'Revoke Plumber' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this pass?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const gone = await apiCall(server.url, 'GET', `/api${new URL(link).pathname}`);
    expect(gone.status).toBe(404);
    expect(errors).toEqual([]);
    await page.close();
  });
});
