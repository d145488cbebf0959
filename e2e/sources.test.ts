import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { DevicesPage } from './support/devices.page.js';
import { type Account, ADA, openSignedIn, setRole, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// Issue 35 §3 in Chromium: the admins' Sources page. A producer on the embedded broker (the bus's
// external user) leaves a Home Assistant config Hearth refuses, retained; the page shows it with
// its reason and topic, and Forget clears it on the bus (an empty retained message) after asking.

const GHOST = 'homeassistant/switch/ghost/config';
const SENSOR = 'homeassistant/sensor/porch/temperature/config';

describe('the Sources page', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off', TASMOTA_DISCOVERY_PREFIX: 'off' } });
  let admin: Account;
  let producer: mqtt.MqttClient;
  /** What reaches the bus on the ghost's topic: each payload's length and retain flag. */
  const onGhost: { bytes: number; retain: boolean }[] = [];

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    producer = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4, clientId: 'producer' });
    producer.on('message', (topic, payload, packet) => {
      if (topic === GHOST) onGhost.push({ bytes: payload.length, retain: packet.retain });
    });
    await producer.subscribeAsync(GHOST);
    await producer.publishAsync(
      SENSOR,
      JSON.stringify({
        name: 'Temperature',
        stat_t: 'homeassistant/porch/t',
        unit_of_meas: '°C',
        dev: { ids: 'porch-1', name: 'Porch sensor' },
      }),
      { retain: true },
    );
    // A config Home Assistant would refuse too: availability must be a list.
    await producer.publishAsync(
      GHOST,
      JSON.stringify({ name: 'Ghost', cmd_t: 'homeassistant/ghost/set', availability: 'yes' }),
      { retain: true },
    );
    await producer.publishAsync('homeassistant/porch/t', '18.5');
  });
  afterAll(async () => {
    await producer?.publishAsync(SENSOR, '', { retain: true });
    await producer?.publishAsync(GHOST, '', { retain: true });
    await producer?.endAsync();
  });

  it('lists each source as configured, with its devices, from the Devices page', async () => {
    const devices = await DevicesPage.open(suite.browser, suite.server.url, admin);
    await devices.tile('Porch sensor').waitFor();
    await devices.page.getByRole('link', { name: 'Sources' }).click();
    const page = devices.page;
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/devices/sources');
    const card = (name: string) => page.getByRole('article', { name });
    await card('Zigbee2MQTT').getByText('On', { exact: true }).waitFor();
    await card('Tasmota').getByText('Off', { exact: true }).waitFor();
    const ha = card('Home Assistant');
    await ha.getByText('1 device', { exact: true }).waitFor();
    await ha.getByText(/^Last message /).waitFor();
    // The pointer leaves the link it pressed (a hovered button is not what is judged).
    await page.mouse.move(0, 0);
    expect(await seriousA11yViolations(page, '.sources-page')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousA11yViolations(page, '.sources-page')).toEqual([]);
    await devices.close();
  });

  it('shows the refused config with its reason and topic, and Forget clears it on the bus', async () => {
    const { page } = await openSignedIn(suite.browser, suite.server.url, admin, '/devices/sources');
    const ha = page.getByRole('article', { name: 'Home Assistant' });
    const row = ha.locator('tr', { hasText: GHOST });
    await row.waitFor();
    expect(await row.getByText('availability must be a list of {topic, …}').count()).toBe(1);
    const retainedBefore = onGhost.length;

    await row.getByRole('button', { name: `Forget ${GHOST}` }).click();
    const dialog = page.getByRole('dialog', { name: `Forget ${GHOST}?` });
    await dialog.getByRole('button', { name: 'Forget' }).click();
    await page.getByText(`Forgotten: ${GHOST}`).waitFor();
    await ha.getByText('Nothing refused').waitFor();
    // One empty message on the topic, and the broker holds nothing retained on it any more.
    await eventually(
      async () => onGhost.slice(retainedBefore),
      (messages) => messages.length === 1,
    );
    expect(onGhost.slice(retainedBefore)).toEqual([{ bytes: 0, retain: false }]);
    const late = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4, clientId: 'late' });
    const heard: string[] = [];
    late.on('message', (topic) => heard.push(topic));
    await late.subscribeAsync([GHOST, 'homeassistant/marker']);
    await late.publishAsync('homeassistant/marker', 'x');
    await eventually(
      async () => heard,
      (topics) => topics.includes('homeassistant/marker'),
    );
    await late.endAsync();
    expect(heard).toEqual(['homeassistant/marker']);
    // The activity log names it.
    await page.goto(`${suite.server.url}/activity`);
    const entry = page.locator('.activity-entry', { hasText: 'Retained config forgotten' });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(GHOST);
    await page.close();
  });

  it('is for admins only: a resident gets no link and no page', async () => {
    const resident = await signUp(suite.server.url, {
      first_name: 'Rita',
      last_name: 'Res',
      user_name: 'rita',
    });
    await setRole(suite.server.url, admin, resident, 'resident');
    const devices = await DevicesPage.open(suite.browser, suite.server.url, resident);
    await devices.tile('Porch sensor').waitFor();
    expect(await devices.page.getByRole('link', { name: 'Sources' }).count()).toBe(0);
    await devices.page.goto(`${suite.server.url}/devices/sources`);
    await devices.page.getByText('You do not have permission to view this page.').waitFor();
    await devices.close();
  });
});
