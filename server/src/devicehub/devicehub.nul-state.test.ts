import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import { DevicesRepository } from './devicehub.repository.js';
import { byName, useHousehold } from './devicehub-test-kit.js';

// Issue 32 item 3: PostgreSQL refuses U+0000 in text. A device's state is stored as JSON text,
// which spells it out (\u0000), so a device that reports one is still kept in the registry.
describe.each(testDatabases())('a device state with U+0000 on $name', ({ create }) => {
  const h = useHousehold({ database: create });

  it('is written to the registry as it came, and the device keeps reporting', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    await h.z2m.publish('Living room/Lamp', { state: 'ON\u0000' });
    const registry = new DevicesRepository(h.app.storage.db);
    const stored = await eventually(
      async () => (await registry.all()).find((device) => device.id === lamp.id)?.state,
      (state) => state?.state === 'ON\u0000',
    );
    expect(stored).toMatchObject({ state: 'ON\u0000' });
    await h.z2m.publish('Living room/Lamp', { state: 'OFF' });
    await eventually(
      async () => (await registry.all()).find((device) => device.id === lamp.id)?.state,
      (state) => state?.state === 'OFF',
    );
    expect(h.app.logs.text).not.toContain('device state flush failed');
  });
});

// What a source lists is the ecosystem's word on a device: PostgreSQL refused the whole list
// update when an address or a name in it held U+0000. The registry drops it from what it stores.
describe.each(testDatabases())('a device list with U+0000 on $name', ({ create }) => {
  const h = useHousehold({ database: create });
  const config = () => `${h.haPrefix}/switch/shed/relay/config`;
  afterAll(() => h.z2m.client.publishAsync(config(), '', { retain: true }));

  it('is stored without it, the other devices of the list too, and later lists still apply', async () => {
    const remote = h.z2m.devices.find((d) => d.friendly_name === 'Kitchen remote')!;
    const twin = { ...remote, friendly_name: 'Garden remote', ieee_address: '0x90fd9ffffe0b\u00001c2e' };
    h.z2m.devices = [...h.z2m.devices, twin];
    await h.z2m.publishDevices();
    // Home Assistant discovery names its devices from any producer's config.
    await h.z2m.client.publishAsync(
      config(),
      JSON.stringify({
        name: 'Relay',
        stat_t: `${h.haPrefix}/shed/relay/state`,
        cmd_t: `${h.haPrefix}/shed/relay/set`,
        dev: { ids: 'shed\u0000-1', name: 'Sh\u0000ed' },
      }),
      { retain: true },
    );
    const names = await eventually(
      async () => (await h.list()).map((device) => device.name).sort(),
      (list) => list.length === 6,
    );
    expect(names).toEqual([
      'Front door',
      'Garden remote',
      'Kitchen remote',
      'Living room/Lamp',
      'Shed',
      'Stairs switch',
    ]);
    const registry = new DevicesRepository(h.app.storage.db);
    const stored = (await registry.all()).map((device) => [device.name, device.external_id]);
    expect(stored).toContainEqual(['Garden remote', '0x90fd9ffffe0b1c2e']);
    expect(stored).toContainEqual(['Shed', 'shed-1']);

    // The same list again keeps each device's id; a rename still applies.
    const ids = Object.fromEntries((await h.list()).map((device) => [device.name, device.id]));
    h.z2m.devices = h.z2m.devices.map((d) => (d === twin ? { ...d, friendly_name: 'Gate remote' } : d));
    await h.z2m.publishDevices();
    const after = await eventually(
      () => h.list(),
      (list) => list.some((device) => device.name === 'Gate remote'),
    );
    expect(after.find((device) => device.name === 'Gate remote')?.id).toBe(ids['Garden remote']);
    expect(after.find((device) => device.name === 'Shed')?.id).toBe(ids.Shed);
    expect(after).toHaveLength(6);
  });
});
