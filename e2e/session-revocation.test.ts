import type { WebSocket } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  ADA,
  gotoWithToken,
  openSignedIn,
  SettingsPage,
  signUp,
} from './support/settings.page.js';
import { useE2e } from './support/suite.js';

/**
 * Issue 11 acceptance 3: a password change in one browser signs the same user out everywhere
 * else at once. The second browser's next call answers 401 and its device stream closes, both
 * within 2 s of the change.
 */
describe('a password change ends the other browser’s session (Chromium)', () => {
  const suite = useE2e({ mail: true });
  let ada: Account;

  beforeAll(async () => {
    ada = await signUp(suite.server.url, ADA);
  });

  it('closes the second context’s device stream and refuses its next call within 2 s', async () => {
    // The second browser: signed in, on the devices page with its stream open.
    let stream: WebSocket | undefined;
    const other = await suite.page({ viewport: { width: 1280, height: 900 } });
    other.on('websocket', (socket) => {
      if (socket.url().includes('/ws/devicehub')) stream = socket;
    });
    const { refreshToken } = await (async () => {
      const response = await fetch(`${suite.server.url}/api/auth/login/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ada.email, password: ada.password }),
      });
      const body = (await response.json()) as { refresh_token: string };
      return { refreshToken: body.refresh_token };
    })();
    await gotoWithToken(other, suite.server.url, refreshToken, '/devices');
    await other.getByRole('button', { name: `Account menu for ${ada.user_name}` }).waitFor();
    await expect.poll(() => stream !== undefined, { timeout: 10_000 }).toBe(true);
    let closedAt: number | undefined;
    stream?.on('close', () => {
      closedAt = Date.now();
    });
    const meStatus = () =>
      other.evaluate(async () => (await fetch('/api/auth/me', { credentials: 'same-origin' })).status);
    expect(await meStatus()).toBe(200);

    // The first browser changes the password in Settings.
    const { page } = await openSignedIn(suite.browser, suite.server.url, ada);
    const settings = new SettingsPage(page, ada.user_name);
    await settings.open();
    await settings.button('Change Password').click();
    await settings.field('Current Password').fill(ada.password);
    await settings.field('New Password').fill('Fresh-Hearth-pass-1');
    await settings.field('Confirm New Password').fill('Fresh-Hearth-pass-1');
    await settings.button('Update Password').click();
    await settings.expectStatus('✅ Password updated successfully!');
    const changedAt = Date.now();

    // Within 2 s: the stream is closed and the next call is refused.
    await expect.poll(() => closedAt, { timeout: 2000, interval: 50 }).toBeDefined();
    expect((closedAt ?? Number.POSITIVE_INFINITY) - changedAt).toBeLessThanOrEqual(2000);
    expect(await meStatus()).toBe(401);
    expect(Date.now() - changedAt).toBeLessThanOrEqual(2000);
    // The browser that changed it carries on.
    expect(await page.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(200);
    await other.context().close();
  });
});
