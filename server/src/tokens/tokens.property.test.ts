import { ACCESS_LEVELS, type AccessLevel, accessAtLeast, type Device, type Room } from '@hearth/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  commandFor,
  eventually,
  openStream,
  simulatedDevices,
  useStreamTestApp,
} from '../../test/device-stream.js';
import type { UserRecord } from '../users/index.js';
import { TOKENS_ERRORS } from './tokens.errors.js';

const DEVICES = 6;
const ROOMS = 3;
const level = fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: undefined });

/** A household (each device's room, ROOMS: unassigned), the owner's rules, and a token over it. */
const scenario = fc.record({
  role: fc.constantFrom('user' as const, 'resident' as const),
  placement: fc.array(fc.integer({ min: 0, max: ROOMS }), { minLength: DEVICES, maxLength: DEVICES }),
  roomRules: fc.array(level, { minLength: ROOMS, maxLength: ROOMS }),
  deviceRules: fc.array(level, { minLength: DEVICES, maxLength: DEVICES }),
  scope: fc.constantFrom('read' as const, 'control' as const),
  tokenRooms: fc.subarray([...Array(ROOMS).keys()]),
  tokenDevices: fc.subarray([...Array(DEVICES).keys()]),
});

const lower = (a: AccessLevel, b: AccessLevel): AccessLevel => (accessAtLeast(a, b) ? b : a);

/**
 * Issue 38, acceptance 1: for random households, rules and tokens, what a token lists, streams and
 * may command is its owner's view narrowed to the token's rooms and devices, at most `view` for a
 * `read` token: never more than the owner.
 */
describe.each(testDatabases())("an API token's reach is its owner's, narrowed, on $name", ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'tokens-prop');
  let admin: UserRecord;
  let origin: string;
  let devices: Device[];
  let rooms: Room[];
  const owners = {} as Record<'user' | 'resident', UserRecord>;
  const ends: (() => void)[] = [];

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await simulatedDevices(t, admin, DEVICES);
    rooms = [];
    for (let i = 0; i < ROOMS; i++)
      rooms.push((await t.call(admin, 'POST', '/api/rooms', { name: `Room ${i}` })).body);
    origin = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
    owners.user = await t.user('user');
    owners.resident = await t.user('resident');
  });
  afterAll(() => {
    for (const end of ends) end();
  });

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('lists, streams and lets through the owner’s devices within the token, never more', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const owner = owners[s.role];
        for (let r = 0; r <= ROOMS; r++) {
          const ids = devices.filter((_, i) => s.placement[i] === r).map((d) => d.id);
          const url = r === ROOMS ? '/api/rooms/unassigned/devices' : `/api/rooms/${rooms[r]!.id}/devices`;
          expect((await t.call(admin, 'PUT', url, { device_ids: ids })).status).toBe(200);
        }
        const rules = {
          rooms: Object.fromEntries(
            rooms.flatMap((room, i) => (s.roomRules[i] ? [[room.id, s.roomRules[i]]] : [])),
          ),
          devices: Object.fromEntries(
            devices.flatMap((device, i) => (s.deviceRules[i] ? [[device.id, s.deviceRules[i]]] : [])),
          ),
        };
        expect((await t.call(admin, 'PUT', `/api/access/${owner.id}`, rules)).status).toBe(200);
        const ownerView: Record<string, AccessLevel> = Object.fromEntries(
          ((await t.call(owner, 'GET', '/api/devicehub/devices')).body as Device[]).map((d) => [
            d.id,
            d.access ?? 'none',
          ]),
        );
        const levelOf = (id: string): AccessLevel => ownerView[id] ?? 'none';
        // What the token names: only what its owner may give (creation refuses the rest, tested apart).
        const most: AccessLevel = s.scope === 'control' ? 'control' : 'view';
        const enough = (id: string) => accessAtLeast(levelOf(id), most);
        const tokenDevices = s.tokenDevices.map((i) => devices[i]!.id).filter(enough);
        const tokenRooms = s.tokenRooms
          .filter((r) => devices.some((d, i) => s.placement[i] === r && enough(d.id)))
          .map((r) => rooms[r]!.id);
        const created = await t.call(owner, 'POST', '/api/auth/tokens', {
          name: 'Property',
          expires_in: 'never',
          scope: s.scope,
          rooms: tokenRooms,
          devices: tokenDevices,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const token: string = created.body.token;

        const narrowed = tokenRooms.length + tokenDevices.length > 0;
        const expected = Object.fromEntries(
          devices.flatMap((device, i) => {
            const within =
              !narrowed ||
              tokenDevices.includes(device.id) ||
              (s.placement[i]! < ROOMS && tokenRooms.includes(rooms[s.placement[i]!]!.id));
            const reach = within ? lower(most, levelOf(device.id)) : 'none';
            return reach === 'none' ? [] : [[device.id, reach]];
          }),
        );
        const listed = Object.fromEntries(
          ((await call(token, 'GET', '/api/devicehub/devices')).json() as Device[]).map((d) => [
            d.id,
            d.access,
          ]),
        );
        expect(listed).toEqual(expected);
        for (const [id, reach] of Object.entries(listed))
          expect(accessAtLeast(levelOf(id), reach ?? 'none')).toBe(true);

        // A new stream connection with the token gets the same devices (or is refused, reaching none).
        const keys = (map: Record<string, unknown>) => Object.keys(map).sort().join();
        if (Object.keys(ownerView).length > 0) {
          const stream = await openStream(origin, prefix, token);
          ends.push(() => stream.end());
          await eventually(() => keys(Object.fromEntries(stream.devices)) === keys(expected), 2000).catch(
            () => {
              expect([...stream.devices.keys()].sort(), 'stream').toEqual(Object.keys(expected).sort());
            },
          );
          stream.end();
        }

        // Commands: a read token makes none (403 before any device is looked at); a control token
        // is let through exactly where it has control.
        const passed: Record<string, AccessLevel> = {};
        for (const device of devices) {
          const answer = await call(
            token,
            'POST',
            `/api/devicehub/devices/${device.id}/commands`,
            commandFor(device),
          );
          if (s.scope === 'read') {
            expect(answer.json()).toMatchObject({ error: TOKENS_ERRORS.readOnly });
            continue;
          }
          const seen: AccessLevel =
            answer.statusCode === 404 ? 'none' : answer.statusCode === 403 ? 'view' : 'control';
          if (seen !== 'none') passed[device.id] = seen;
        }
        if (s.scope === 'control') expect(passed).toEqual(expected);
      }),
      { numRuns: 10 },
    );
  }, 180_000);
});
