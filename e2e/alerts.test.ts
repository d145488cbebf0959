import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { artifactsDir } from './support/browser.js';
import { hubDevices } from './support/devices.page.js';
import { type Account, apiCall, gotoWithToken, logIn, setRole, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

/** A water leak sensor as Zigbee2MQTT lists it (Aqara SJCGQ11LM). */
const LEAK_SENSOR = {
  ieee_address: '0x00158d0001a2b3c4',
  type: 'EndDevice',
  network_address: 4101,
  supported: true,
  disabled: false,
  friendly_name: 'Bathroom leak',
  power_source: 'Battery',
  interview_completed: true,
  interviewing: false,
  definition: {
    model: 'SJCGQ11LM',
    vendor: 'Aqara',
    description: 'Water leak sensor',
    supports_ota: false,
    options: [],
    exposes: [
      {
        type: 'binary',
        name: 'water_leak',
        label: 'Water leak',
        property: 'water_leak',
        access: 1,
        value_on: true,
        value_off: false,
      },
      { type: 'numeric', name: 'battery', label: 'Battery', property: 'battery', access: 1, unit: '%' },
    ],
  },
};

/**
 * docs/alerts.md#in-the-app, issue 36 acceptance 3: a leak sensor trips → within 2 s the bell's count
 * rises and the critical banner shows on another page; acknowledging it in the inbox ends the banner
 * in every open browser of the household and is in the activity log; a `user` without rules for the
 * sensor sees nothing.
 */
describe('alerts in the browser', () => {
  const suite = useE2e({ bus: true });
  let z2m: MqttClient;
  let ada: Account;
  let bob: Account;
  let kim: Account;

  const open = async (account: Account, route: string): Promise<Page> => {
    const { refreshToken } = await logIn(suite.server.url, account.email, account.password);
    const page = await suite.page({ viewport: { width: 1280, height: 900 } });
    await gotoWithToken(page, suite.server.url, refreshToken, route);
    await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
    // The bell: the page's notification stream is open with it.
    await page.locator('a.notification-bell').waitFor();
    return page;
  };
  const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'Bathroom leak: Leak detected' });
  const count = (page: Page) => page.getByTestId('bell-count');

  beforeAll(async () => {
    ada = await signUp(suite.server.url, { first_name: 'Ada', last_name: 'Lovelace', user_name: 'ada' });
    bob = await signUp(suite.server.url, { first_name: 'Bob', last_name: 'Builder', user_name: 'bob' });
    kim = await signUp(suite.server.url, { first_name: 'Kim', last_name: 'Kid', user_name: 'kim' });
    await setRole(suite.server.url, ada, bob, 'resident');
    bob = { ...bob, accessToken: (await logIn(suite.server.url, bob.email, bob.password)).accessToken };
    z2m = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4 });
    await z2m.publishAsync('zigbee2mqtt/bridge/devices', JSON.stringify([LEAK_SENSOR]), { retain: true });
    await eventually(
      () => hubDevices(suite.server.url, ada),
      (list) => list.some((device) => device.name === 'Bathroom leak'),
    );
  });
  afterAll(async () => {
    await z2m?.endAsync();
  });

  it('shows the leak within 2 s on other pages, ends it everywhere on acknowledgement, and never to a user without rules', async () => {
    const adaActivity = await open(ada, '/activity');
    const bobHome = await open(bob, '/');
    const kimHome = await open(kim, '/');
    // Nothing before the leak; if something is, the failure names it (seen once in CI, unexplained).
    const before = await apiCall<{ notifications: { kind: string; title: string; created_at: string }[] }>(
      suite.server.url,
      'GET',
      '/api/notifications?status=all',
      undefined,
      ada.accessToken,
    );
    expect(before.data.notifications).toEqual([]);
    await expect(count(adaActivity).count()).resolves.toBe(0);

    const tripped = Date.now();
    await z2m.publishAsync('zigbee2mqtt/Bathroom leak', JSON.stringify({ water_leak: true, battery: 90 }));
    await banner(adaActivity).waitFor({ timeout: 2000 });
    await banner(bobHome).waitFor({ timeout: 2000 });
    await bobHome.screenshot({ path: `${artifactsDir}/alerts-banner.png` });
    expect(Date.now() - tripped).toBeLessThanOrEqual(2000);
    expect(await count(adaActivity).textContent()).toBe('1');
    expect(await count(bobHome).textContent()).toBe('1');
    // Kim's page has heard of it by now if it ever will: nothing.
    await expect(banner(kimHome).count()).resolves.toBe(0);
    await expect(count(kimHome).count()).resolves.toBe(0);

    const inbox = await open(ada, '/notifications');
    await inbox.getByTestId('notification').first().waitFor();
    await inbox.screenshot({ path: `${artifactsDir}/alerts-inbox.png` });
    const item = inbox.getByTestId('notification').filter({ hasText: 'Bathroom leak: Leak detected' });
    await item.getByRole('button', { name: 'Acknowledge' }).click();
    await item.getByText('Acknowledged by Ada Lovelace').waitFor();
    await banner(adaActivity).waitFor({ state: 'detached', timeout: 2000 });
    await banner(bobHome).waitFor({ state: 'detached', timeout: 2000 });
    await banner(inbox).waitFor({ state: 'detached', timeout: 2000 });

    const log = await apiCall<{ entries: { actor: { id: string }; kind: string; result: string }[] }>(
      suite.server.url,
      'GET',
      '/api/activity?kind=alert.acknowledge',
      undefined,
      ada.accessToken,
    );
    expect(log.data.entries).toHaveLength(1);
    expect(log.data.entries[0]).toMatchObject({
      actor: { id: ada.id },
      kind: 'alert.acknowledge',
      result: 'ok',
    });
    // The kind reads as the activity page names it.
    await adaActivity.goto(`${suite.server.url}/activity?kind=alert.acknowledge`);
    await adaActivity
      .getByText(/^Alert acknowledged/)
      .filter({ visible: true })
      .first()
      .waitFor();

    const kimInbox = await open(kim, '/notifications');
    await kimInbox.getByText('Nothing to report.').waitFor();
  });
});
