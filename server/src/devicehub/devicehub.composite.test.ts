import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositeDevicesFixture } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { byName, streamClient, testBuses, useHousehold, waitFor } from './devicehub-test-kit.js';

// Composites, lists and text over REST and the browser stream: sent whole to `<name>/set`, and a
// value the device can't take is answered with a 400 naming it, with nothing sent on the bus.
describe.each(testBuses())('composite, list and text commands with Zigbee2MQTT on the $name', ({ url }) => {
  const h = useHousehold({ bus: url, devices: compositeDevicesFixture(), browsers: true });
  let browser: MqttClient;
  const command = async (name: string, body: unknown) => h.command(byName(await h.list(), name)!.id, body);
  beforeAll(async () => {
    ({ client: browser } = await streamClient(h.wsUrl, h.resident, h.prefix));
  });
  afterAll(() => browser?.end(true));

  it('sends a siren warning and a pin code whole, over REST and over the stream', async () => {
    const warning = { mode: 'burglar', level: 'high', strobe: true, duration: 10 };
    const rest = await command('Hall siren', { input: { id: 'warning', value: warning } });
    expect([rest.statusCode, rest.json()]).toEqual([200, expect.objectContaining({ success: true })]);
    const lock = byName(await h.list(), 'Front door lock')!;
    const pin = { user: 2, user_type: 'unrestricted', user_enabled: true, pin_code: 4321 };
    await browser.publishAsync(
      `${h.prefix}/devicehub/commands/device.set`,
      JSON.stringify({ device_id: lock.id, state: { pin_code: pin } }),
    );
    const gradient = await command('Living room gradient', {
      input: { id: 'gradient', value: ['#FF0000', '#00FF00'] },
    });
    expect(gradient.statusCode).toBe(200);
    await waitFor(() => h.z2m.sets.length >= 3 || undefined);
    expect(h.z2m.sets).toEqual([
      { name: 'Hall siren', payload: { warning } },
      { name: 'Front door lock', payload: { pin_code: pin } },
      { name: 'Living room gradient', payload: { gradient: ['#FF0000', '#00FF00'] } },
    ]);
  });

  it('answers a value the device cannot take with a 400 naming it, and sends nothing', async () => {
    const before = h.z2m.sets.length;
    const cases: [string, unknown, string][] = [
      [
        'Hall siren',
        { input: { id: 'warning', value: { mode: 'burglar', level: 'deafening' } } },
        'Invalid command payload: warning.level must be one of low, medium, high, very_high',
      ],
      [
        'Stairs dimmer',
        { input: { id: 'level_config_l1', value: { on_level_l1: 300 } } },
        'Invalid command payload: level_config_l1.on_level_l1 must be between 1 and 254',
      ],
      [
        'Living room gradient',
        { input: { id: 'gradient', value: [] } },
        'Invalid command payload: gradient must have at least 1 items',
      ],
    ];
    for (const [name, body, error] of cases) {
      const response = await command(name, body);
      expect([response.statusCode, response.json()]).toEqual([400, { success: false, data: null, error }]);
    }
    // A refused stream command is logged, not sent; the next good one shows the bus was quiet.
    const siren = byName(await h.list(), 'Hall siren')!;
    await browser.publishAsync(
      `${h.prefix}/devicehub/commands/device.set`,
      JSON.stringify({ device_id: siren.id, state: { warning: { mode: 'disco' } } }),
    );
    await waitFor(() => h.app.logs.text.includes('warning.mode must be one of') || undefined);
    await command('Hall siren', { input: { id: 'squawk', value: { state: 'system_is_armed' } } });
    await waitFor(() => h.z2m.sets.length > before || undefined);
    expect(h.z2m.sets.slice(before)).toEqual([
      { name: 'Hall siren', payload: { squawk: { state: 'system_is_armed' } } },
    ]);
  });
});
