import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { serviceUrl } from '../../test/services.js';
import { byName, type Household, startHousehold, waitFor } from './devicehub-test-kit.js';

const WRITES = 'device state writer: this instance writes device state';
const mosquitto = serviceUrl('TEST_MQTT_URL');

const stored = async (h: Household, name: string) =>
  h.app.storage.db
    .selectFrom('devicehub_devices')
    .innerJoin('devicehub_states', 'devicehub_states.device_id', 'devicehub_devices.id')
    .select(['online', 'last_seen'])
    .where('name', '=', name)
    .executeTakeFirst();

describe.each(testDatabases())('device state writer and presence on $name', ({ name, create }) => {
  const shared = name === 'postgres';
  const unique = crypto.randomUUID().slice(0, 8);
  const base = `z2m-writer-${unique}`;
  let database: Awaited<ReturnType<typeof create>>;
  let a: Household;

  beforeAll(async () => {
    database = await create();
    ({ household: a } = await startHousehold(database, mosquitto, { base, prefix: `hearth-a-${unique}` }));
    await a.z2m.publishDevices();
    await waitFor(async () => (await a.list()).length === 4);
  });
  afterAll(async () => {
    await a?.z2m.publish('bridge/devices', '', true);
    await a?.close();
    await database?.drop();
  });

  it('keeps online and last seen with the registry (a device without availability goes online on a fresh message)', async () => {
    await a.z2m.publish('Front door', { contact: true, last_seen: '2026-11-24T06:00:00.000Z' });
    await waitFor(async () => {
      const row = await stored(a, 'Front door');
      return row?.online === 1 && row.last_seen === '2026-11-24T06:00:00.000Z';
    });
    if (shared) expect(a.app.logs.text).toContain(WRITES);
    else expect(a.app.logs.text).not.toContain(WRITES);
  });

  it.runIf(shared && mosquitto)(
    'another instance agrees on online and last seen; only one writes, and the other takes over within 5 s of the first stopping',
    async () => {
      const { household: b } = await startHousehold(database, mosquitto, {
        base,
        prefix: `hearth-b-${unique}`,
      });
      try {
        // B was not there for the fresh message: it shows the registry's view.
        const door = await waitFor(async () => {
          const found = byName(await b.list(), 'Front door');
          return found?.online ? found : undefined;
        });
        expect(door.last_seen).toBe('2026-11-24T06:00:00.000Z');
        expect(b.app.logs.text).not.toContain(WRITES);

        // A newer report on the bus: both show it, A writes it, B follows.
        await a.z2m.publish('Front door', { contact: false, last_seen: '2026-11-24T06:01:00.000Z' });
        for (const h of [a, b]) {
          await waitFor(
            async () => byName(await h.list(), 'Front door')?.last_seen === '2026-11-24T06:01:00.000Z',
          );
        }

        const stopped = Date.now();
        await a.app.close();
        await waitFor(() => b.app.logs.text.includes(WRITES), 5000);
        const handedOver = Date.now() - stopped;
        expect(handedOver).toBeLessThan(5000);

        // B writes now.
        await b.z2m.publish('Front door', { contact: true, last_seen: '2026-11-24T06:02:00.000Z' });
        await waitFor(
          async () => (await stored(b, 'Front door'))?.last_seen === '2026-11-24T06:02:00.000Z',
          5000,
        );
      } finally {
        await b.close();
      }
    },
  );

  it.runIf(shared && mosquitto)(
    'an instance that takes the lock at start shows and keeps what the registry says of a device without availability reports',
    async () => {
      // The instances before it saw the front door's fresh message; none runs now, so this one
      // writes at once, before the bus has told it anything (a restart inside the hand-over window).
      const { household: c } = await startHousehold(database, mosquitto, {
        base,
        prefix: `hearth-c-${unique}`,
      });
      try {
        expect(await stored(c, 'Front door')).toMatchObject({ online: 1 });
        await waitFor(() => c.app.logs.text.includes(WRITES), 5000);
        expect(byName(await c.list(), 'Front door')).toMatchObject({
          online: true,
          last_seen: '2026-11-24T06:02:00.000Z',
        });
        // Its whole view went to the registry when it took the lock; a report after that is
        // stored with it or later (once the adapter listens: /healthz stops naming the hub; the
        // list went with the household before).
        await waitFor(async () => {
          const health = (await c.app.app.inject({ url: '/healthz' })).json() as { failing?: string[] };
          return !health.failing?.includes('devicehub');
        }, 5000);
        await c.z2m.publishDevices();
        await c.z2m.publish('Kitchen remote', { action: 'single', last_seen: '2026-11-24T06:03:00.000Z' });
        await waitFor(
          async () => (await stored(c, 'Kitchen remote'))?.last_seen === '2026-11-24T06:03:00.000Z',
          5000,
        );
        expect(await stored(c, 'Front door')).toEqual({ online: 1, last_seen: '2026-11-24T06:02:00.000Z' });
      } finally {
        await c.close();
      }
    },
  );
});
