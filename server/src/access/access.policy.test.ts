import { ACCESS_LEVELS, type AccessLevel, accessAtLeast, type Role } from '@hearth/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCESS_ERRORS as E } from './access.errors.js';
import {
  cappedRules,
  controlsEverything,
  editDenial,
  firstBeyond,
  levelOf,
  mayViewSomething,
  type RuleSet,
  readDenial,
} from './access.policy.js';

const rules = (
  rooms: Record<string, AccessLevel> = {},
  devices: Record<string, AccessLevel> = {},
): RuleSet => ({
  rooms: new Map(Object.entries(rooms)),
  devices: new Map(Object.entries(devices)),
});

describe('a device level', () => {
  it.each<[Role, RuleSet, string, string | null, AccessLevel]>([
    ['user', rules(), 'd1', 'r1', 'none'],
    ['resident', rules(), 'd1', 'r1', 'control'],
    ['admin', rules({ r1: 'none' }, { d1: 'none' }), 'd1', 'r1', 'control'],
    ['user', rules({ r1: 'view' }), 'd1', 'r1', 'view'],
    ['user', rules({ r1: 'view' }), 'd1', 'r2', 'none'],
    ['user', rules({ r1: 'view' }), 'd1', null, 'none'],
    ['user', rules({ r1: 'view' }, { d1: 'control' }), 'd1', 'r1', 'control'],
    ['user', rules({ r1: 'control' }, { d1: 'none' }), 'd1', 'r1', 'none'],
    ['user', rules({}, { d1: 'view' }), 'd1', null, 'view'],
    ['resident', rules({ r1: 'none' }), 'd1', 'r1', 'none'],
    ['resident', rules({ r1: 'none' }), 'd2', 'r2', 'control'],
    ['resident', rules({ r1: 'none' }, { d1: 'view' }), 'd1', 'r1', 'view'],
  ])('%s with %o on %s in %s: %s', (role, set, device, room, level) => {
    expect(levelOf(role, set, device, room)).toBe(level);
  });

  it.each<[Role, RuleSet, boolean, boolean]>([
    ['admin', rules({ r1: 'none' }), true, true],
    ['resident', rules(), true, true],
    ['resident', rules({ r1: 'control' }), false, true],
    ['user', rules(), false, false],
    ['user', rules({ r1: 'none' }), false, false],
    ['user', rules({ r1: 'none' }, { d1: 'view' }), false, true],
  ])('%s with %o: fast path %s, may connect %s', (role, set, fast, connect) => {
    expect(controlsEverything(role, set)).toBe(fast);
    expect(mayViewSomething(role, set)).toBe(connect);
  });
});

describe('who may change whose rules', () => {
  const admin = { id: 'a', role: 'admin' as const };
  const admin2 = { id: 'a2', role: 'admin' as const };
  const resident = { id: 'r', role: 'resident' as const };
  const resident2 = { id: 'r2', role: 'resident' as const };
  const user = { id: 'u', role: 'user' as const };
  const user2 = { id: 'u2', role: 'user' as const };
  it.each([
    [admin, user, undefined, undefined],
    [admin, resident, undefined, undefined],
    [admin, admin2, E.adminRules, undefined],
    [admin, admin, E.adminRules, undefined],
    [resident, user, undefined, undefined],
    [resident, resident, E.ownRules, undefined],
    [resident, resident2, E.residentEdits, E.residentEdits],
    [resident, admin, E.adminRules, E.adminRules],
    [user, user, E.forbidden, undefined],
    [user, user2, E.forbidden, E.forbidden],
    [user, resident, E.forbidden, E.forbidden],
  ])('%o edits %o: %s; reads: %s', (caller, target, edit, read) => {
    expect(editDenial(caller, target)).toBe(edit);
    expect(readDenial(caller, target)).toBe(read);
  });
});

describe('the granting rule (docs/access.md#granting), for random rules', () => {
  const ROOMS = ['r0', 'r1', 'r2'];
  const DEVICES = ['d0', 'd1', 'd2', 'd3', 'd4'];
  const level = fc.constantFrom(...ACCESS_LEVELS);
  const ruleSet = fc
    .record({
      rooms: fc.dictionary(fc.constantFrom(...ROOMS), level),
      devices: fc.dictionary(fc.constantFrom(...DEVICES), level),
    })
    .map(({ rooms, devices }) => rules(rooms, devices));
  const placement = fc
    .array(fc.option(fc.constantFrom(...ROOMS), { nil: null }), {
      minLength: DEVICES.length,
      maxLength: DEVICES.length,
    })
    .map((rooms) => new Map(DEVICES.map((id, i) => [id, rooms[i] ?? null])));
  const role = fc.constantFrom<Role>('user', 'resident');
  const lower = (a: AccessLevel, b: AccessLevel) => (accessAtLeast(a, b) ? b : a);

  it('caps a role change: on every device the lower of the kept rules and the granter', () => {
    fc.assert(
      // Only residents (and admins, never capped) change roles: the granter is a resident.
      fc.property(role, ruleSet, ruleSet, placement, (to, target, granter, where) => {
        const granterRole = 'resident';
        const capped = cappedRules(to, target, { role: granterRole, rules: granter }, where);
        for (const [device, room] of where) {
          expect(levelOf(to, capped, device, room)).toBe(
            lower(levelOf(to, target, device, room), levelOf(granterRole, granter, device, room)),
          );
        }
        for (const room of [...ROOMS, null]) {
          expect(
            accessAtLeast(
              levelOf(granterRole, granter, 'elsewhere', room),
              levelOf(to, capped, 'elsewhere', room),
            ),
          ).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds every change that gives a device more than the target had and the granter has', () => {
    fc.assert(
      fc.property(
        role,
        ruleSet,
        ruleSet,
        role,
        ruleSet,
        placement,
        (of, before, after, granterRole, granter, where) => {
          const beyond = firstBeyond(of, before, after, { role: granterRole, rules: granter }, where);
          const widened = [...where].some(([device, room]) => {
            const now = levelOf(of, after, device, room);
            return (
              !accessAtLeast(levelOf(of, before, device, room), now) &&
              !accessAtLeast(levelOf(granterRole, granter, device, room), now)
            );
          });
          if (widened) expect(beyond).toBeDefined();
          if (beyond === undefined) expect(widened).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
