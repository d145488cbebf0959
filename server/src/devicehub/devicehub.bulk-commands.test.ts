import type { ActivityEntry, DeviceBulkCommandAnswer } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import { bridgeDevicesFixture } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { useHousehold } from './devicehub-test-kit.js';

// docs/devicehub.md#commands-to-several-devices (issue 34 item 2): a device counts as done only
// when its state confirms the command; offline devices are not sent to; the activity log says the same.

/** The fixture's Hue lamp under other names and addresses: four lamps that behave differently. */
const LAMPS = ['Hall lamp', 'Desk lamp', 'Attic lamp', 'Porch lamp'];
function household() {
  const fixture = bridgeDevicesFixture();
  const hue = fixture.find((device) => device.friendly_name === 'Living room/Lamp')!;
  const stairs = fixture.find((device) => device.friendly_name === 'Stairs switch')!;
  return [
    ...LAMPS.map((name, index) => ({
      ...structuredClone(hue),
      friendly_name: name,
      ieee_address: `0x00178801000000${String(index).padStart(2, '0')}`,
    })),
    structuredClone(stairs),
  ];
}

describe.each(testDatabases())('commands to several devices on $name', ({ create }) => {
  const h = useHousehold({ database: create, devices: household(), listed: 5 });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const device of await h.list()) ids[device.name] = device.id;
    // Hall lamp and the stairs switch echo what they are told; Desk lamp answers but stays on;
    // Attic lamp ignores commands; Porch lamp is offline.
    h.z2m.echo = (name, payload) => {
      if (name === 'Attic lamp') return undefined;
      if (name === 'Desk lamp') return { state: 'ON', brightness: 200 };
      return payload;
    };
    for (const name of [...LAMPS, 'Stairs switch'])
      await h.z2m.publish(
        `${name}/availability`,
        { state: name === 'Porch lamp' ? 'offline' : 'online' },
        true,
      );
    await eventually(h.list, (devices) =>
      devices.every((device) => device.online === (device.name !== 'Porch lamp')),
    );
  });

  const bulk = (body: unknown, token?: string) => h.call('POST', '/api/devicehub/commands', body, token);

  it('turns a room off: confirmed by the echoed state, the others named as not responding or offline, each recorded so', async () => {
    const since = new Date().toISOString();
    const off = (name: string) => ({ device_id: ids[name], state: { on: false } });
    const answer = await bulk({
      commands: [
        off('Hall lamp'),
        off('Desk lamp'),
        off('Attic lamp'),
        off('Porch lamp'),
        { device_id: ids['Stairs switch'], input: { id: 'state_right', value: false }, state: { on: false } },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const { data } = answer.json() as { data: DeviceBulkCommandAnswer };
    expect(data).toEqual({
      results: [
        { device_id: ids['Hall lamp'], name: 'Hall lamp', outcome: 'confirmed' },
        { device_id: ids['Desk lamp'], name: 'Desk lamp', outcome: 'not_responding' },
        { device_id: ids['Attic lamp'], name: 'Attic lamp', outcome: 'not_responding' },
        { device_id: ids['Porch lamp'], name: 'Porch lamp', outcome: 'offline' },
        { device_id: ids['Stairs switch'], name: 'Stairs switch', outcome: 'confirmed' },
      ],
      confirmed: 2,
      total: 5,
    });
    // The offline one was never sent to.
    expect(h.z2m.sets.filter((set) => set.name === 'Porch lamp')).toEqual([]);
    expect(h.z2m.sets.find((set) => set.name === 'Stairs switch')?.payload).toEqual({ state_right: 'OFF' });

    await h.app.activity.flush();
    const listed = await h.call('GET', `/api/activity?kind=device.command&from=${since}`);
    const entries = (listed.json().entries as ActivityEntry[]).filter((entry) => entry.device_id);
    const byName = Object.fromEntries(
      entries.map((entry) => [entry.detail.name, [entry.result, entry.detail]]),
    );
    expect(byName).toEqual({
      'Hall lamp': ['ok', { name: 'Hall lamp', state: { on: false }, outcome: 'confirmed' }],
      'Desk lamp': [
        'failed',
        { name: 'Desk lamp', state: { on: false }, outcome: 'not_responding', reason: 'Not responding' },
      ],
      'Attic lamp': [
        'failed',
        { name: 'Attic lamp', state: { on: false }, outcome: 'not_responding', reason: 'Not responding' },
      ],
      'Porch lamp': [
        'failed',
        { name: 'Porch lamp', state: { on: false }, outcome: 'offline', reason: 'Offline' },
      ],
      'Stairs switch': ['ok', { name: 'Stairs switch', state: { state_right: false }, outcome: 'confirmed' }],
    });
    expect(entries).toHaveLength(5);
  });

  it('refuses what a device cannot take and devices out of reach, sending none of them', async () => {
    const user = await h.token('user');
    const before = h.z2m.sets.length;
    const strangers = await bulk({ commands: [{ device_id: ids['Hall lamp'], state: { on: true } }] }, user);
    expect(strangers.json().data).toEqual({
      results: [{ device_id: ids['Hall lamp'], outcome: 'refused', error: 'Device not found' }],
      confirmed: 0,
      total: 1,
    });
    const mixed = await bulk({
      commands: [
        { device_id: 'no-such-device', state: { on: true } },
        { device_id: ids['Hall lamp'], input: { id: 'brightness', value: 9999 } },
        { device_id: ids['Hall lamp'], input: { id: 'brightness', value: 120 }, state: { on: true } },
      ],
    });
    expect(mixed.json().data).toEqual({
      results: [
        { device_id: 'no-such-device', outcome: 'refused', error: 'Device not found' },
        {
          device_id: ids['Hall lamp'],
          name: 'Hall lamp',
          outcome: 'refused',
          error: 'Invalid command payload: brightness must be between 0 and 254',
        },
        { device_id: ids['Hall lamp'], name: 'Hall lamp', outcome: 'confirmed' },
      ],
      confirmed: 1,
      total: 3,
    });
    expect(h.z2m.sets.slice(before)).toEqual([
      { name: 'Hall lamp', payload: { brightness: 120, state: 'ON' } },
    ]);
  });

  it.each([
    [{}, 'commands must be a list of 1 to 500 commands, each with a device_id'],
    [{ commands: [] }, 'commands must be a list of 1 to 500 commands, each with a device_id'],
    [
      { commands: [{ state: { on: true } }] },
      'commands must be a list of 1 to 500 commands, each with a device_id',
    ],
    [{ commands: [{ device_id: 'x' }] }, 'Missing command payload'],
    [{ commands: [{ device_id: 'x', state: 'on' }] }, 'Invalid command payload'],
    [
      { commands: Array.from({ length: 501 }, () => ({ device_id: 'x', state: { on: true } })) },
      'commands must be a list of 1 to 500 commands, each with a device_id',
    ],
  ])('answers 400 to %j', async (body, error) => {
    const answer = await bulk(body);
    expect([answer.statusCode, answer.json().error]).toEqual([400, error]);
  });
});
