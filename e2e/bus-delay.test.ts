import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOwnMosquitto } from '../server/test/restartable-broker.js';
import { serviceUrl } from '../server/test/services.js';
import { eventually } from '../server/test/wait.js';
import { DevicesPage } from './support/devices.page.js';
import { type Account, ADA, apiCall, setRole, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const NOTICE =
  /^The MQTT broker holds messages back \(\d+ ms per round trip\)\. With Mosquitto, add "set_tcp_nodelay true" to its configuration\.$/;

// The built Hearth against a Mosquitto of the test's own with Mosquitto's default configuration.
const enabled = Boolean(serviceUrl('TEST_MQTT_URL'));
if (!enabled)
  console.warn('[skipped] the slow-broker notice: TEST_MQTT_URL (Mosquitto on this machine) is needed');

describe.skipIf(!enabled)('the slow-broker notice in Chromium, against a default Mosquitto', () => {
  const broker = useOwnMosquitto({ nodelay: false });
  const suite = useE2e({ env: () => ({ MQTT_URL: broker.url, SIMULATOR: 'off', LOG_LEVEL: 'warn' }) });
  let admin: Account;
  let resident: Account;
  const pages: DevicesPage[] = [];

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    resident = await signUp(suite.server.url, {
      first_name: 'Rita',
      last_name: 'Resident',
      user_name: 'rita',
    });
    await setRole(suite.server.url, admin, resident, 'resident');
    // The probe's verdict. A probe while the machine is busy gives none (bus-probe.ts): it tries
    // again for about ten seconds, then once a minute, so a loaded machine may take that minute.
    await eventually(
      async () =>
        (await apiCall<{ details: { bus_delay_warning: boolean } }>(suite.server.url, 'GET', '/healthz'))
          .data,
      (health) => health.details?.bus_delay_warning === true,
      90_000,
    );
  }, 150_000);
  afterAll(async () => {
    for (const page of pages) await page.close();
  });

  it('logs the warning once, naming set_tcp_nodelay', () => {
    const lines = suite.server
      .output()
      .split('\n')
      .filter((line) => line.includes('set_tcp_nodelay true'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, busRoundTripMs: expect.any(Number) });
  });

  it('shows an admin the notice on the Devices page, and a resident not', async () => {
    const asAdmin = await DevicesPage.open(suite.browser, suite.server.url, admin);
    pages.push(asAdmin);
    await asAdmin.heading().waitFor();
    await asAdmin.text(NOTICE).waitFor();

    const asResident = await DevicesPage.open(suite.browser, suite.server.url, resident);
    pages.push(asResident);
    await asResident.heading().waitFor();
    await asResident.text('State: connected').waitFor();
    expect(await asResident.text(NOTICE).count()).toBe(0);
    expect([...asAdmin.errors, ...asResident.errors]).toEqual([]);
  }, 30_000);
});
