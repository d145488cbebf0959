import { ACCESS_LEVELS, type AccessLevel, type Device, type Role, type Room } from '@hearth/contracts';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 5;
const ROOMS = 3;
const PEOPLE = 4;
/** The admin is caller number PEOPLE. */
const ADMIN = PEOPLE;

const level = fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: undefined });
const rules = fc.record({
  rooms: fc.array(level, { minLength: ROOMS, maxLength: ROOMS }),
  devices: fc.array(level, { minLength: DEVICES, maxLength: DEVICES }),
});
const person = fc.integer({ min: 0, max: PEOPLE - 1 });

/** A household: each person's role and the rules an admin gave them, and each device's room (ROOMS: none). */
const household = fc.record({
  roles: fc.array(fc.constantFrom<Role>('user', 'resident'), { minLength: PEOPLE, maxLength: PEOPLE }),
  given: fc.array(rules, { minLength: PEOPLE, maxLength: PEOPLE }),
  placement: fc.array(fc.integer({ min: 0, max: ROOMS }), { minLength: DEVICES, maxLength: DEVICES }),
});

/** One change by a random caller, the admin included. */
const step = fc.record({
  caller: fc.integer({ min: 0, max: ADMIN }),
  action: fc.oneof(
    fc.record({ kind: fc.constant('rules' as const), target: person, rules }),
    fc.record({
      kind: fc.constant('role' as const),
      target: person,
      role: fc.constantFrom<Role>('user', 'resident', 'admin'),
      reset: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('delete' as const), room: fc.integer({ min: 0, max: ROOMS - 1 }) }),
  ),
});

const rank = (l: AccessLevel) => ACCESS_LEVELS.indexOf(l);
const max = (a: AccessLevel, b: AccessLevel) => (rank(a) >= rank(b) ? a : b);
type Reach = Record<string, AccessLevel>;

/**
 * docs/access.md#granting, acceptance 1 of issue 32 (item 2): for random households and random
 * sequences of rule changes, role changes (with and without `reset_access`) and room deletions, by
 * random callers, admins included, over HTTP:
 *
 * - a change by someone other than an admin changes at most its target's reach, and on each device
 *   leaves it no higher than the higher of what the target had and what the caller had then;
 * - deleting a room changes nobody's reach;
 * - so nobody's reach (their level on each device, as their device list says) ever exceeds `given`:
 *   the union of what admins gave them (their reach right after each admin's change of them, and at
 *   the start) and, through each grant, of what admins gave the granter.
 */
describe.each(testDatabases())('nobody reaches more than admins gave, on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { SIMULATOR: 'on', SIMULATOR_DEVICES: String(DEVICES) } });
  let admin: UserRecord;
  let devices: Device[];
  const tokens = new Map<string, string>();
  let households = 0;

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await waitFor(async () => {
      const list: Device[] = (await t.call(admin, 'GET', '/api/devicehub/devices')).body;
      return list.length === DEVICES && list;
    });
  });

  /** A call with one token per account, signed in again when a role change ended its sessions. */
  const call = async (
    user: UserRecord,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ) => {
    for (let attempt = 0; ; attempt++) {
      let token = tokens.get(user.id);
      if (!token) {
        token = await t.tokenFor(user);
        tokens.set(user.id, token);
      }
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body } : {}),
      });
      if (response.statusCode === 401 && attempt === 0) {
        tokens.delete(user.id);
        continue;
      }
      return { status: response.statusCode, body: response.body ? response.json() : undefined };
    }
  };
  const reachOf = async (user: UserRecord): Promise<Reach> => {
    const listed: Device[] = (await call(user, 'GET', '/api/devicehub/devices')).body;
    const levels = Object.fromEntries(listed.map((d) => [d.id, d.access as AccessLevel]));
    return Object.fromEntries(devices.map((d) => [d.id, levels[d.id] ?? 'none']));
  };
  const asBody = (
    r: { rooms: (AccessLevel | undefined)[]; devices: (AccessLevel | undefined)[] },
    rooms: Room[],
  ) => ({
    rooms: Object.fromEntries(rooms.flatMap((room, i) => (r.rooms[i] ? [[room.id, r.rooms[i]]] : []))),
    devices: Object.fromEntries(
      devices.flatMap((device, i) => (r.devices[i] ? [[device.id, r.devices[i]]] : [])),
    ),
  });

  it('holds after every change', async () => {
    await fc.assert(
      fc.asyncProperty(household, fc.array(step, { minLength: 1, maxLength: 8 }), async (home, steps) => {
        const n = ++households;
        const rooms: Room[] = [];
        for (let r = 0; r < ROOMS; r++)
          rooms.push((await call(admin, 'POST', '/api/rooms', { name: `Room ${n}.${r}` })).body);
        for (let r = 0; r <= ROOMS; r++) {
          const ids = devices.filter((_, i) => home.placement[i] === r).map((d) => d.id);
          const url = r === ROOMS ? '/api/rooms/unassigned/devices' : `/api/rooms/${rooms[r]!.id}/devices`;
          expect((await call(admin, 'PUT', url, { device_ids: ids })).status).toBe(200);
        }
        const people: UserRecord[] = [];
        for (let p = 0; p < PEOPLE; p++) {
          const someone = await t.user(home.roles[p]!);
          expect(
            (await call(admin, 'PUT', `/api/access/${someone.id}`, asBody(home.given[p]!, rooms))).status,
          ).toBe(200);
          people.push(someone);
        }
        const reaches = async () => Promise.all(people.map(reachOf));
        let now = await reaches();
        // What admins gave each person, device by device.
        const given: Reach[] = now.map((reach) => ({ ...reach }));

        for (const { caller, action } of steps) {
          const by = caller === ADMIN ? admin : people[caller]!;
          const answer =
            action.kind === 'rules'
              ? await call(by, 'PUT', `/api/access/${people[action.target]!.id}`, asBody(action.rules, rooms))
              : action.kind === 'role'
                ? await call(by, 'PATCH', `/api/auth/users/${people[action.target]!.id}`, {
                    role: action.role,
                    reset_access: action.reset,
                  })
                : await call(by, 'DELETE', `/api/rooms/${rooms[action.room]!.id}`);
          expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
          const before = now;
          now = await reaches();
          const what = `${caller === ADMIN ? 'admin' : `person ${caller}`}: ${JSON.stringify(action)} → ${answer.status}`;
          for (let p = 0; p < PEOPLE; p++) {
            for (const device of devices) {
              const [was, is] = [before[p]![device.id]!, now[p]![device.id]!];
              if (action.kind === 'delete' || (caller !== ADMIN && p !== action.target)) {
                expect(is, `${what}: person ${p}'s reach on ${device.name} changed`).toBe(was);
              } else if (caller !== ADMIN) {
                const granter = before[caller]![device.id]!;
                expect(
                  rank(is),
                  `${what}: person ${p} got ${is} of ${device.name} (had ${was}, the caller ${granter})`,
                ).toBeLessThanOrEqual(rank(max(was, granter)));
              }
            }
          }
          if (action.kind !== 'delete' && answer.status < 300) {
            const target = action.target;
            for (const device of devices) {
              const from = caller === ADMIN ? now[target]![device.id]! : given[caller]![device.id]!;
              given[target]![device.id] = max(given[target]![device.id]!, from);
            }
          }
          for (let p = 0; p < PEOPLE; p++) {
            for (const device of devices) {
              expect(
                rank(now[p]![device.id]!),
                `${what}: person ${p} reaches ${now[p]![device.id]} of ${device.name}, admins gave ${given[p]![device.id]}`,
              ).toBeLessThanOrEqual(rank(given[p]![device.id]!));
            }
          }
        }
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
