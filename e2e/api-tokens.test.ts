import { expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { hubDevices } from './support/devices.page.js';
import {
  ADA,
  axeFindings,
  openSignedIn,
  SettingsPage,
  screenshotBothThemes,
  signUp,
} from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// Issue 38, acceptance 3, in Chromium: a token made in Settings, copied, switches a lamp from a
// script, shows in the activity log as the token acting for its owner, and stops at its revocation.
const suite = useE2e({ env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });

it('makes a token in Settings that a script uses until it is revoked', async () => {
  const base = suite.server.url;
  const ada = await signUp(base, ADA);
  const lamp = (
    await eventually(
      () => hubDevices(base, ada),
      (list) => list.some((device) => device.name === 'Living room lamp'),
    )
  ).find((device) => device.name === 'Living room lamp')!;
  const { page, errors } = await openSignedIn(suite.browser, base, ada);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const settings = new SettingsPage(page, ada.user_name);
  await settings.open();

  await settings.button('New token').click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await dialog.getByLabel('Name').waitFor();
  expect(await axeFindings(page, '[aria-labelledby="new-token-title"]')).toEqual([]);
  await dialog.getByLabel('Name').fill('Stream Deck');
  await dialog.getByLabel('Access').selectOption('control');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByRole('dialog', { name: 'Token created' });
  await created.getByText('Copy this token now: it is shown only this once.').waitFor();
  await screenshotBothThemes(page, 'api-token-created', false);
  await created.getByRole('button', { name: 'Copy token' }).click();
  await created.getByRole('status').filter({ hasText: 'Token copied' }).waitFor();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^hearth_[A-Za-z0-9]{40}$/);
  await created.getByRole('button', { name: 'Done' }).click();
  const list = settings.dialog.getByRole('list', { name: 'API tokens' });
  await list.getByText('Stream Deck').waitFor();
  await list.getByText(/Never used · Never expires|Never used · Expires/).waitFor();
  expect(await axeFindings(page, '[aria-labelledby="settings-tokens-title"]')).toEqual([]);

  // A script: plain fetch with the token as Bearer.
  const command = () =>
    fetch(`${base}/api/devicehub/devices/${lamp.id}/commands`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: { on: true } }),
    });
  const switched = await command();
  expect(switched.status).toBe(200);
  expect(await switched.json()).toMatchObject({
    success: true,
    data: { device_id: lamp.id, status: 'sent' },
  });

  // The activity log names the token and whose it is.
  await settings.button('Close settings').click();
  await page.goto(`${base}/activity`);
  const entry = page
    .locator('.activity-entry')
    .filter({ hasText: 'Stream Deck (API token of Ada Lovelace)' });
  await entry.filter({ hasText: 'Device command' }).first().waitFor({ timeout: 10_000 });

  // Revoked in Settings: the next call answers 401.
  await page.goto(base);
  await settings.open();
  await settings.button('Revoke Stream Deck').click();
  await settings.expectStatus('Token revoked');
  const refused = await command();
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ success: false, error: 'Invalid API token' });
  expect(errors).toEqual([]);
});
