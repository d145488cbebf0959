import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import { type AutomationKit, lamp, plug, startAutomationKit } from './automations-test-kit.js';

// docs/automations.md#scenes: create, capture, apply (per-device results, a bounded rate), and
// the refusals (issue 37), on both databases.

describe.each(testDatabases())('scenes on $name', ({ create }) => {
  let database: TestDatabase;
  let kit: AutomationKit;
  beforeAll(async () => {
    database = await create();
    kit = await startAutomationKit(database, {
      devices: [
        lamp('Lounge/Lamp 1', '0x00158d0001cc0001'),
        lamp('Lounge/Lamp 2', '0x00158d0001cc0002'),
        plug('Lounge/TV plug', '0x00158d0001cc0003'),
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  const id = (name: string) => kit.device(name).id;

  it('saves the room as it is, applies it back after the lamps changed, and says per device what was sent', async () => {
    const room = (await kit.call(kit.admin, 'POST', '/api/rooms', { name: 'Lounge' })).body;
    await kit.report('Lounge/Lamp 1', { state: 'ON', brightness: 51 });
    await kit.report('Lounge/Lamp 2', { state: 'OFF', brightness: 200 });
    await kit.report('Lounge/TV plug', { state: 'ON' });
    const captured = await kit.call(kit.resident, 'POST', '/api/scenes/capture', {
      name: 'Movie',
      room_id: room.id,
      device_ids: [id('Lounge/Lamp 1'), id('Lounge/Lamp 2'), id('Lounge/TV plug')],
    });
    expect(captured.status).toBe(201);
    expect(captured.body).toMatchObject({
      name: 'Movie',
      room_id: room.id,
      icon: null,
      targets: [
        { device_id: id('Lounge/Lamp 1'), state: { state: 'ON', brightness: 51 } },
        { device_id: id('Lounge/Lamp 2'), state: { state: 'OFF', brightness: 200 } },
        { device_id: id('Lounge/TV plug'), state: { state: 'ON' } },
      ],
    });
    expect((await kit.call(kit.resident, 'GET', '/api/scenes')).body.scenes).toEqual([captured.body]);
    await kit.report('Lounge/Lamp 1', { state: 'OFF', brightness: 254 });
    const before = kit.sets('Lounge/Lamp 1').length;
    const applied = await kit.call(kit.resident, 'POST', `/api/scenes/${captured.body.id}/apply`);
    expect(applied).toEqual({
      status: 200,
      body: {
        results: [
          { device_id: id('Lounge/Lamp 1'), status: 'sent' },
          { device_id: id('Lounge/Lamp 2'), status: 'sent' },
          { device_id: id('Lounge/TV plug'), status: 'sent' },
        ],
      },
    });
    await eventually(
      async () => kit.sets('Lounge/Lamp 1').slice(before),
      (sent) => JSON.stringify(sent) === JSON.stringify([{ state: 'ON', brightness: 51 }]),
    );
    const log = (
      await kit.call(kit.admin, 'GET', `/api/activity?device_id=${id('Lounge/Lamp 1')}&kind=device.command`)
    ).body.entries[0];
    expect(log).toMatchObject({ result: 'ok', actor: { type: 'user', id: kit.resident.id } });
  });

  it('creates from picked values, edits and deletes; refuses unknown devices, properties and read-only ones', async () => {
    const made = await kit.call(kit.resident, 'POST', '/api/scenes', {
      name: 'Bright',
      icon: 'sun',
      targets: [{ device_id: id('Lounge/Lamp 2'), state: { on: true, brightness: 254 } }],
    });
    expect(made.status).toBe(201);
    const patched = await kit.call(kit.resident, 'PATCH', `/api/scenes/${made.body.id}`, {
      name: 'Brighter',
    });
    expect(patched.body).toMatchObject({ name: 'Brighter', icon: 'sun' });
    const refusals: [unknown, string][] = [
      [{ name: 'x', targets: [{ device_id: 'nope', state: { on: true } }] }, 'Unknown device: nope'],
      [
        { name: 'x', targets: [{ device_id: id('Lounge/Lamp 2'), state: { colour: 'red' } }] },
        'Unknown property of Lounge/Lamp 2: colour',
      ],
      [{ name: 'x', targets: [] }, 'targets must be a list of 1 to 500 {device_id, state}'],
      [
        { name: '', targets: [{ device_id: id('Lounge/Lamp 2'), state: { on: true } }] },
        'name must be 1 to 64 characters',
      ],
      [
        { name: 'x', room_id: 'nope', targets: [{ device_id: id('Lounge/Lamp 2'), state: { on: true } }] },
        'Unknown room: nope',
      ],
    ];
    for (const [body, error] of refusals)
      expect(await kit.call(kit.resident, 'POST', '/api/scenes', body)).toEqual({
        status: 400,
        body: { error },
      });
    expect((await kit.call(kit.resident, 'DELETE', `/api/scenes/${made.body.id}`)).status).toBe(204);
    expect((await kit.call(kit.resident, 'POST', `/api/scenes/${made.body.id}/apply`)).status).toBe(404);
  });

  it("applies only what the caller controls: another device's failure is named, the rest is sent", async () => {
    const narrowed = await kit.user('resident');
    await kit.call(kit.admin, 'PUT', `/api/access/${narrowed.id}`, {
      rooms: {},
      devices: { [id('Lounge/TV plug')]: 'view' },
    });
    const scene = (
      await kit.call(kit.admin, 'POST', '/api/scenes', {
        name: 'Off',
        targets: [
          { device_id: id('Lounge/Lamp 1'), state: { state: 'OFF' } },
          { device_id: id('Lounge/TV plug'), state: { state: 'OFF' } },
        ],
      })
    ).body;
    expect((await kit.call(narrowed, 'POST', `/api/scenes/${scene.id}/apply`)).body.results).toEqual([
      { device_id: id('Lounge/Lamp 1'), status: 'sent' },
      {
        device_id: id('Lounge/TV plug'),
        status: 'failed',
        error: 'You may only view this device, not control it',
      },
    ]);
  });
  it('a device removed from its ecosystem leaves scenes and automations intact; its step reads "Device removed"', async () => {
    const plugId = id('Lounge/TV plug');
    const scene = (
      await kit.call(kit.resident, 'POST', '/api/scenes', {
        name: 'With the TV',
        targets: [
          { device_id: id('Lounge/Lamp 1'), state: { state: 'ON' } },
          { device_id: plugId, state: { state: 'ON' } },
        ],
      })
    ).body;
    const automation = (
      await kit.call(kit.resident, 'POST', '/api/automations', {
        name: 'TV on',
        triggers: [{ type: 'start' }],
        actions: [
          { type: 'device', device_id: plugId, state: { state: 'ON' } },
          { type: 'scene', scene_id: scene.id },
        ],
      })
    ).body;
    kit.z2m.devices = kit.z2m.devices.filter((each) => each.friendly_name !== 'Lounge/TV plug');
    await kit.z2m.publishDevices();
    await eventually(
      async () => (await kit.call(kit.admin, 'GET', '/api/devicehub/devices')).body as { id: string }[],
      (list) => !list.some((each) => each.id === plugId),
    );
    expect((await kit.call(kit.resident, 'POST', `/api/scenes/${scene.id}/apply`)).body.results).toEqual([
      { device_id: id('Lounge/Lamp 1'), status: 'sent' },
      { device_id: plugId, status: 'failed', error: 'Device removed' },
    ]);
    await kit.call(kit.resident, 'POST', `/api/automations/${automation.id}/run`);
    const runs = await eventually(
      async () => (await kit.call(kit.admin, 'GET', `/api/automations/${automation.id}/runs`)).body.runs,
      (list: { status: string; steps: unknown[] }[]) => list[0]?.status === 'failed',
    );
    expect(runs[0]?.steps).toEqual([
      expect.objectContaining({ kind: 'device', result: 'failed', error: 'Device removed' }),
      expect.objectContaining({ kind: 'scene', result: 'sent 1 of 2', error: `${plugId}: Device removed` }),
    ]);
    // Both keep the device: if it comes back, they work again.
    expect(
      (await kit.call(kit.admin, 'GET', `/api/automations/${automation.id}`)).body.actions[0].device_id,
    ).toBe(plugId);
    expect(
      (await kit.call(kit.admin, 'GET', '/api/scenes')).body.scenes.find(
        (each: { id: string }) => each.id === scene.id,
      ).targets,
    ).toHaveLength(2);
  });
});

describe('a scene of 500 devices', () => {
  let database: TestDatabase;
  let kit: AutomationKit;
  const plugs = Array.from({ length: 500 }, (_, i) =>
    plug(`Plug ${i}`, `0x00158d0002${String(i).padStart(6, '0')}`),
  );
  beforeAll(async () => {
    database = await (testDatabases()[0] as { create: () => Promise<TestDatabase> }).create();
    kit = await startAutomationKit(database, { devices: plugs });
  }, 60_000);
  afterAll(async () => {
    await kit?.close();
    await database?.drop();
  });

  it('is sent at the bounded rate (50 a second): every device gets its command, none at once', async () => {
    const scene = (
      await kit.call(kit.resident, 'POST', '/api/scenes', {
        name: 'Everything off',
        targets: plugs.map((each) => ({
          device_id: kit.device(each.friendly_name).id,
          state: { state: 'OFF' },
        })),
      })
    ).body;
    expect(scene.targets).toHaveLength(500);
    const started = performance.now();
    const applied = await kit.call(kit.resident, 'POST', `/api/scenes/${scene.id}/apply`);
    const took = performance.now() - started;
    expect(applied.body.results.filter((each: { status: string }) => each.status === 'sent')).toHaveLength(
      500,
    );
    // 500 at 50 a second: ten slices, the last starting 9 s after the first.
    expect(took).toBeGreaterThanOrEqual(9000);
    await eventually(
      async () => kit.z2m.sets.length,
      (count) => count === 500,
    );
  }, 60_000);
});
