import { ACCESS_LEVELS, type AccessLevel, type Device, type Room } from '@hearth/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  commandFor,
  eventually,
  openStream,
  type StreamView,
  simulatedDevices,
  useStreamTestApp,
} from '../../test/device-stream.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 6;
const ROOMS = 3;

/** Each device's room (an index, ROOMS: unassigned) and the account's rules (undefined: no entry). */
const scenario = fc.record({
  role: fc.constantFrom('user' as const, 'resident' as const),
  placement: fc.array(fc.integer({ min: 0, max: ROOMS }), { minLength: DEVICES, maxLength: DEVICES }),
  rooms: fc.array(fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: undefined }), {
    minLength: ROOMS,
    maxLength: ROOMS,
  }),
  devices: fc.array(fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: undefined }), {
    minLength: DEVICES,
    maxLength: DEVICES,
  }),
});

/**
 * docs/access.md, acceptance 1 of issue 15: for random rules, rooms and devices, what REST lists, what
 * the stream delivers (to an open connection within 2 s, and to a new one) and which commands pass
 * are the same set, at the same levels.
 */
describe.each(testDatabases())('access: REST, stream and commands agree on $name', ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'access-prop');
  let admin: UserRecord;
  let origin: string;
  let devices: Device[];
  let rooms: Room[];
  const people: Record<'user' | 'resident', { record: UserRecord; stream: StreamView } | undefined> = {
    user: undefined,
    resident: undefined,
  };

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await simulatedDevices(t, admin, DEVICES);
    rooms = [];
    for (let i = 0; i < ROOMS; i++)
      rooms.push((await t.call(admin, 'POST', '/api/rooms', { name: `Room ${i}` })).body);
    origin = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
    for (const role of ['user', 'resident'] as const) {
      const record = await t.user(role);
      // The user's connection opens with a rule (an account that may view nothing can't connect).
      await t.call(admin, 'PUT', `/api/access/${record.id}`, { devices: { [devices[0]!.id]: 'view' } });
      people[role] = { record, stream: await openStream(origin, prefix, await t.tokenFor(record)) };
    }
  });
  afterAll(() => {
    people.user?.stream.end();
    people.resident?.stream.end();
  });

  const asMap = (stream: StreamView) =>
    Object.fromEntries([...stream.devices].map(([id, seen]) => [id, seen.access]).sort());

  it('lists, streams and lets through the same devices at the same levels', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ role, placement, rooms: roomLevels, devices: deviceLevels }) => {
        const person = people[role]!;
        for (let r = 0; r <= ROOMS; r++) {
          const ids = devices.filter((_, i) => placement[i] === r).map((d) => d.id);
          const url = r === ROOMS ? '/api/rooms/unassigned/devices' : `/api/rooms/${rooms[r]!.id}/devices`;
          expect((await t.call(admin, 'PUT', url, { device_ids: ids })).status).toBe(200);
        }
        const body = {
          rooms: Object.fromEntries(
            rooms.flatMap((room, i) => (roomLevels[i] ? [[room.id, roomLevels[i]]] : [])),
          ),
          devices: Object.fromEntries(
            devices.flatMap((device, i) => (deviceLevels[i] ? [[device.id, deviceLevels[i]]] : [])),
          ),
        };
        const changed = Date.now();
        expect((await t.call(admin, 'PUT', `/api/access/${person.record.id}`, body)).status).toBe(200);

        const listed: Device[] = (await t.call(person.record, 'GET', '/api/devicehub/devices')).body;
        const rest = Object.fromEntries(listed.map((d) => [d.id, d.access]).sort());
        // The open connection follows within 2 s.
        await eventually(() => JSON.stringify(asMap(person.stream)) === JSON.stringify(rest), 2000).catch(
          () => {
            expect(asMap(person.stream), `open stream ${Date.now() - changed} ms after the change`).toEqual(
              rest,
            );
          },
        );
        // A new connection gets the same devices' state (their access comes with the REST list), or is
        // refused when it may view nothing at all.
        const keys = (map: Record<string, unknown>) => Object.keys(map).sort().join();
        const mayConnect =
          role === 'resident' ||
          [...Object.values(body.rooms), ...Object.values(body.devices)].some((l) => l !== 'none');
        if (mayConnect) {
          const fresh = await openStream(origin, prefix, await t.tokenFor(person.record));
          try {
            await eventually(() => keys(asMap(fresh)) === keys(rest), 2000).catch(() => {
              expect(Object.keys(asMap(fresh)).sort(), 'new stream').toEqual(Object.keys(rest).sort());
            });
          } finally {
            fresh.end();
          }
        } else expect(listed).toEqual([]);
        // Commands: refused for access (403/404) exactly where the list does not say control.
        const passed: Record<string, AccessLevel> = {};
        for (const device of devices) {
          const answer = await t.call(
            person.record,
            'POST',
            `/api/devicehub/devices/${device.id}/commands`,
            commandFor(device),
          );
          const level: AccessLevel =
            answer.status === 404 ? 'none' : answer.status === 403 ? 'view' : 'control';
          if (level !== 'none') passed[device.id] = level;
        }
        expect(Object.fromEntries(Object.entries(passed).sort())).toEqual(rest);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
