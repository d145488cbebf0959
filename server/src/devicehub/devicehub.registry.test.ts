import type { Device } from '@hearth/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { bridgeDevicesFixture } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import {
  byName,
  type Household,
  listenForBrowsers,
  startHousehold,
  streamClient,
  testBuses,
  waitFor,
} from './devicehub-test-kit.js';

const REAL = ['Front door', 'Kitchen remote', 'Living room/Lamp', 'Stairs switch'];

const idsByName = (devices: Device[]) =>
  Object.fromEntries(
    devices.map((d) => [d.name, d.id]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

/** 10 000 entries Zigbee2MQTT would never publish: nothing in them is a usable device. */
const garbage = () =>
  Array.from(
    { length: 10_000 },
    (_, i) =>
      [
        i,
        `device ${i}`,
        null,
        {},
        { ieee_address: `0x${i.toString(16)}` },
        { friendly_name: `Nameless ${i}` },
        { ieee_address: '0x1', friendly_name: `bad/#/${i}`, definition: { exposes: [] } },
        { ieee_address: `0xbad${i}`, friendly_name: `Broken ${i}`, definition: { exposes: [{ type: 42 }] } },
      ][i % 8],
  );

/** Well-formed devices that are not in the household: copies of the door sensor. */
const fakes = (count: number) => {
  const door = bridgeDevicesFixture().find((d) => d.friendly_name === 'Front door')!;
  return Array.from({ length: count }, (_, i) => ({
    ...door,
    ieee_address: `0xfa4e${i.toString(16).padStart(12, '0')}`,
    friendly_name: `Fake sensor ${i}`,
  }));
};

describe.each(testDatabases())('device registry under hostile device lists ($name)', ({ create }) => {
  let database: TestDatabase;
  let h: Household;
  afterEach(async () => {
    await h?.close();
    await database?.drop();
  });

  /** The household with its four devices listed and heard from. */
  async function household() {
    database = await create();
    ({ household: h } = await startHousehold(database, undefined));
    await h.publishDevicesAndWait(4);
    for (const name of REAL) await h.z2m.publish(name, { linkquality: 100 });
    await waitFor(async () => ((await h.list()).every((d) => d.last_seen !== null) ? true : undefined));
    return idsByName(await h.list());
  }

  const command = (id: string) => h.command(id, { state: { on: true } });
  const logLines = () => h.app.logs.lines.map((line) => JSON.parse(line));
  /** What the hub logged since line `from`, without the HTTP request lines. */
  const hubLines = (from: number) =>
    logLines()
      .slice(from)
      .filter((l) => !l.req && !l.res)
      .map((l) => l.msg);

  it('ignores a list of 10 000 garbage entries with one warning, and keeps every id', async () => {
    const ids = await household();
    const linesBefore = h.app.logs.lines.length;
    await h.z2m.publish('bridge/devices', garbage(), true);
    await waitFor(() => h.app.logs.text.includes('no usable entry') || undefined, 10_000);
    expect(idsByName(await h.list())).toEqual(ids);
    expect((await command(ids['Living room/Lamp']!)).statusCode).toBe(200);
    expect(hubLines(linesBefore)).toEqual([
      'bridge/devices has no usable entry; ignored, the registry is unchanged',
    ]);

    await h.z2m.publishDevices();
    await h.z2m.publish('Front door', { contact: true });
    await waitFor(async () =>
      byName(await h.list(), 'Front door')?.state.contact === true ? true : undefined,
    );
    expect(idsByName(await h.list())).toEqual(ids);
  });

  it('bounds a list of 10 000 fake devices, and the real list brings back the same ids', async () => {
    const ids = await household();
    const real = h.z2m.devices;
    const linesBefore = h.app.logs.lines.length;
    h.z2m.devices = fakes(10_000);
    await h.z2m.publishDevices();
    // At most DEVICEHUB_MAX_DEVICES (5000) listed; at most half of the real devices removed.
    const during = await waitFor(async () => {
      const list = await h.list();
      return list.length === 5000 ? list : undefined;
    }, 60_000);
    expect(during.filter((d) => REAL.includes(d.name))).toHaveLength(2);
    const partly = logLines().filter((l) => l.msg?.startsWith('device list only partly applied'));
    expect(partly).toEqual([
      expect.objectContaining({ notRemoved: 2, notAdded: 10_000 - 4998, maxDevices: 5000 }),
    ]);
    expect(partly[0].skippedDevices).toHaveLength(10);

    // The real list brings the two real devices back at once; the fakes, which the registry now
    // knows too, go at most half of what is listed per list (docs/devicehub.md#registry).
    h.z2m.devices = real;
    await h.z2m.publishDevices();
    const back = await waitFor(async () => {
      const list = await h.list();
      return REAL.every((name) => byName(list, name)) ? list : undefined;
    }, 60_000);
    expect(idsByName(back.filter((d) => REAL.includes(d.name)))).toEqual(ids);
    // Each list is one line with counts, not a line per device.
    const applied = logLines().filter((l) => l.msg === 'device list applied');
    expect(applied.at(-1)).toMatchObject({ added: 0, restored: 2, removed: 2500, devices: 2502 });
    const after = await waitFor(
      async () => {
        await h.z2m.publishDevices();
        const list = await h.list();
        return list.length === 4 ? list : undefined;
      },
      60_000,
      250,
    );
    expect(idsByName(after)).toEqual(ids);
    const lines = hubLines(linesBefore);
    expect(lines.slice(0, 4)).toEqual([
      'device list applied',
      'device list only partly applied: it would remove most devices at once or list more than DEVICEHUB_MAX_DEVICES',
      'device list applied',
      'device list only partly applied: it would remove most devices at once or list more than DEVICEHUB_MAX_DEVICES',
    ]);
    expect(new Set(lines)).toEqual(new Set(lines.slice(0, 2)));
    expect((await command(ids['Living room/Lamp']!)).statusCode).toBe(200);
  }, 120_000);

  it('keeps a device that leaves (not listed, announced removed) until an admin purges it', async () => {
    const ids = await household();
    const remoteId = ids['Kitchen remote']!;
    await h.z2m.publish('bridge/event', {
      type: 'device_leave',
      data: { ieee_address: '0x90fd9ffffe0b1c2d', friendly_name: 'Kitchen remote' },
    });
    await waitFor(async () => (byName(await h.list(), 'Kitchen remote') ? undefined : true));
    expect((await command(remoteId)).statusCode).toBe(404);

    const admin = await h.token('admin');
    const call = (method: 'GET' | 'DELETE', url: string, token = admin) =>
      h.call(method, url, undefined, token);
    expect((await call('GET', '/api/devicehub/devices/removed', h.resident)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/devicehub/devices/removed', h.resident)).statusCode).toBe(403);
    const removed = (await call('GET', '/api/devicehub/devices/removed')).json();
    expect(removed).toEqual([
      expect.objectContaining({ id: remoteId, name: 'Kitchen remote', removed_at: expect.any(String) }),
    ]);

    // Zigbee2MQTT lists it again: the same id comes back.
    await h.z2m.publishDevices();
    await waitFor(async () => byName(await h.list(), 'Kitchen remote'));
    expect(idsByName(await h.list())).toEqual(ids);
    expect((await call('GET', '/api/devicehub/devices/removed')).json()).toEqual([]);

    // Removed again, then purged for good: only then would it come back as a new device.
    h.z2m.devices = h.z2m.devices.filter((d) => d.friendly_name !== 'Kitchen remote');
    await h.z2m.publishDevices();
    await waitFor(async () => (byName(await h.list(), 'Kitchen remote') ? undefined : true));
    expect((await call('DELETE', `/api/devicehub/devices/removed/${ids['Front door']}`)).statusCode).toBe(
      404,
    );
    const purged = await call('DELETE', '/api/devicehub/devices/removed');
    expect(purged.json()).toEqual({ success: true, data: { purged: 1 }, error: null });
    expect((await call('GET', '/api/devicehub/devices/removed')).json()).toEqual([]);
    expect(idsByName(await h.list())).toEqual({
      'Front door': ids['Front door'],
      'Living room/Lamp': ids['Living room/Lamp'],
      'Stairs switch': ids['Stairs switch'],
    });
  });

  it('keeps one 200 KB state message from bloating a device: stored, listed and streamed', async () => {
    const ids = await household();
    const wsUrl = await listenForBrowsers(h.app);
    const browser = await streamClient(wsUrl, h.resident, h.prefix);
    const lampTopic = `${h.prefix}/devicehub/devices/${ids['Living room/Lamp']}`;
    try {
      // Under the 256 KB message cap; `effect` is a key the lamp's exposes name.
      await h.z2m.publish('Living room/Lamp', {
        state: 'ON',
        effect: 'x'.repeat(200_000),
        huge: 'y'.repeat(50_000),
      });
      await h.z2m.publish('Living room/Lamp', { brightness: 10 });
      const lamp = await waitFor(async () => {
        const device = byName(await h.list(), 'Living room/Lamp');
        return device?.state.brightness === 10 ? device : undefined;
      });
      expect(JSON.stringify(lamp.state).length).toBeLessThanOrEqual(16 * 1024);
      expect(lamp.state).toMatchObject({ state: 'ON', brightness: 10 });
      expect(lamp.state.huge).toBeUndefined();
      const streamed = await waitFor(() =>
        browser.messages.findLast((m) => m.topic === lampTopic && m.payload.includes('"brightness":10')),
      );
      expect(streamed.payload.length).toBeLessThanOrEqual(16 * 1024);
      // Stopping Hearth flushes the state it holds; what it stored is all that is left.
      await h.close();
      const storage = database.open();
      try {
        const row = await storage.db
          .selectFrom('devicehub_states')
          .select('state')
          .where('device_id', '=', lamp.id)
          .executeTakeFirstOrThrow();
        expect(row.state.length).toBeLessThanOrEqual(16 * 1024);
        expect(JSON.parse(row.state)).toMatchObject({ state: 'ON', brightness: 10 });
      } finally {
        await storage.close();
      }
      const warnings = logLines().filter((l) => l.level === 40 && l.id === lamp.id);
      expect(warnings).toHaveLength(1);
    } finally {
      browser.client.end(true);
    }
  });
});

describe.each(testDatabases())('device registry: devices a bad list took away ($name)', ({ create }) => {
  describe.each(testBuses())('on the $name', ({ url }) => {
    let database: TestDatabase;
    let h: Household;
    afterEach(async () => {
      await h?.close();
      await database?.drop();
    });

    async function household() {
      database = await create();
      ({ household: h } = await startHousehold(database, url));
      await h.publishDevicesAndWait(4);
      return idsByName(await h.list());
    }

    /** Publishes a list and waits until the hub lists every device in it (what else it keeps is the test's). */
    async function listAndWait(devices: Record<string, unknown>[]) {
      h.z2m.devices = devices;
      await h.z2m.publishDevices();
      // The coordinator and devices without a definition are never listed.
      const names = devices
        .filter((d) => d.definition && d.type !== 'Coordinator')
        .map((d) => d.friendly_name);
      return waitFor(async () => {
        const list = await h.list();
        return names.every((name) => byName(list, name as string)) ? list : undefined;
      }, 20_000);
    }

    /** Publishes the list until the hub lists only its devices (each list removes at most half). */
    async function listUntilOnly(devices: Record<string, unknown>[], count: number) {
      h.z2m.devices = devices;
      return waitFor(
        async () => {
          await h.z2m.publishDevices();
          const list = await h.list();
          return list.length === count ? list : undefined;
        },
        20_000,
        500,
      );
    }

    it('a device that returns after a bad list shows its last known availability, and is asked for its state', async () => {
      const ids = await household();
      const real = h.z2m.devices;
      // Zigbee2MQTT publishes availability retained: each is heard once, then consumed.
      // Heard in this order: the lamp and the switch (which can be asked for their state) longest ago.
      const heard = ['Living room/Lamp', 'Stairs switch', 'Front door', 'Kitchen remote'];
      for (const [i, name] of heard.entries()) {
        await h.z2m.publish(`${name}/availability`, { state: 'online' }, true);
        await h.z2m.publish(name, { linkquality: 100, last_seen: `2026-01-01T00:00:0${i}.000Z` });
      }
      await waitFor(async () =>
        (await h.list()).every((d) => d.online && d.last_seen !== null) ? true : undefined,
      );

      // A transient bad list: only fakes. The bound keeps half of the real devices.
      const during = await listAndWait(fakes(6));
      const gone = REAL.filter((name) => !byName(during, name));
      expect(gone.sort()).toEqual(['Living room/Lamp', 'Stairs switch']);
      const getsBefore = h.z2m.gets.length;

      const after = await listAndWait(real);
      expect(Object.fromEntries(REAL.map((name) => [name, byName(after, name)!.online]))).toEqual(
        Object.fromEntries(REAL.map((name) => [name, true])),
      );
      // Hearth asks the returning devices that can answer for a fresh state.
      const askable = gone.filter((name) => byName(after, name)!.capabilities.some((c) => c.access.gettable));
      expect(askable.length).toBeGreaterThan(0);
      await waitFor(
        () => askable.every((name) => h.z2m.gets.slice(getsBefore).some((g) => g.name === name)) || undefined,
      );
      expect(idsByName(await listUntilOnly(real, 4))).toEqual(ids);
    });

    it('never removes more than half of the known devices, also those only heard through retained messages', async () => {
      const ids = await household();
      // Right after a start against a broker that holds only retained topics nothing has been
      // heard live: no device has a last_seen.
      expect((await h.list()).every((d) => d.last_seen === null)).toBe(true);

      const during = await listAndWait(fakes(8));
      expect(during.filter((d) => REAL.includes(d.name))).toHaveLength(2);

      expect(idsByName(await listUntilOnly(bridgeDevicesFixture(), 4))).toEqual(ids);
    });
  });
});
