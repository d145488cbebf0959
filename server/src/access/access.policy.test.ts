import type { AccessLevel, Role } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { ACCESS_ERRORS as E } from './access.errors.js';
import {
  controlsEverything,
  editDenial,
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
