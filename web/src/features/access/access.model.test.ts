import type { AccessRules, Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import {
  canEditRulesOf,
  cellChoice,
  deviceLevel,
  editCell,
  editCount,
  roleDefault,
  roomColumns,
  roomLevel,
  rulesToSave,
  seesAnything,
  withDeviceChoice,
} from './access.model.js';

const rules = (rooms: AccessRules['rooms'] = {}, devices: AccessRules['devices'] = {}): AccessRules => ({
  user_id: 'u1',
  rooms,
  devices,
});

describe('access levels (docs/access.md#levels, #defaults)', () => {
  it.each([
    ['user', 'none'],
    ['resident', 'control'],
    ['admin', 'control'],
  ] as const)('a %s gets %s by default', (role, level) => expect(roleDefault(role)).toBe(level));

  it.each([
    ['no rules: the role default', undefined, 'user', 'lamp', 'kitchen', 'none'],
    ['the room rule', rules({ kitchen: 'view' }), 'user', 'lamp', 'kitchen', 'view'],
    [
      'a device rule over the room rule',
      rules({ kitchen: 'view' }, { lamp: 'control' }),
      'user',
      'lamp',
      'kitchen',
      'control',
    ],
    [
      'a device none in a control room',
      rules({ kitchen: 'control' }, { lamp: 'none' }),
      'resident',
      'lamp',
      'kitchen',
      'none',
    ],
    [
      'unassigned: only the device rule or default',
      rules({ kitchen: 'view' }),
      'resident',
      'lamp',
      null,
      'control',
    ],
    ["another room's rule does not count", rules({ hall: 'control' }), 'user', 'lamp', 'kitchen', 'none'],
  ] as const)('%s', (_name, given, role, device, room, level) => {
    expect(deviceLevel(given, role, device, room)).toBe(level);
  });

  it('a room level falls back to the role', () => {
    expect(roomLevel(rules({ kitchen: 'none' }), 'resident', 'kitchen')).toBe('none');
    expect(roomLevel(rules({}), 'resident', 'kitchen')).toBe('control');
    expect(roomLevel(undefined, 'user', null)).toBe('none');
  });

  it.each([
    [null, false],
    [rules(), false],
    [rules({ a: 'none' }, { b: 'none' }), false],
    [rules({ a: 'view' }), true],
    [rules({}, { b: 'control' }), true],
  ] as const)('%j sees anything: %s', (given, expected) => expect(seesAnything(given)).toBe(expected));

  it.each([
    ['admin', 'user', true],
    ['admin', 'resident', true],
    ['admin', 'admin', false],
    ['resident', 'user', true],
    ['resident', 'resident', false],
    ['resident', 'admin', false],
    ['user', 'user', false],
    [null, 'user', false],
  ] as const)('a %s edits the rules of a %s: %s', (viewer, person, expected) => {
    expect(canEditRulesOf(viewer, person)).toBe(expected);
  });
});

describe('the matrix edits (docs/screens.md#access-rules)', () => {
  const saved = { u1: rules({ kitchen: 'view' }, { lamp: 'control' }) };

  it('shows the edit, else the saved rule, else default', () => {
    const edits = editCell(saved, {}, 'u1', 'hall', 'control');
    expect(cellChoice(saved, edits, 'u1', 'hall')).toBe('control');
    expect(cellChoice(saved, edits, 'u1', 'kitchen')).toBe('view');
    expect(cellChoice(saved, edits, 'u1', 'office')).toBe('default');
    expect(cellChoice(saved, edits, 'u2', 'hall')).toBe('default');
  });

  it('drops an edit that goes back to what is saved, and counts the rest', () => {
    let edits = editCell(saved, {}, 'u1', 'kitchen', 'none');
    edits = editCell(saved, edits, 'u2', 'hall', 'view');
    expect(editCount(edits)).toBe(2);
    edits = editCell(saved, edits, 'u1', 'kitchen', 'view');
    expect(edits).toEqual({ u2: { hall: 'view' } });
    expect(editCount(edits)).toBe(1);
  });

  it('saves one body per changed person: rooms changed, "default" left out, device rules kept', () => {
    let edits = editCell(saved, {}, 'u1', 'kitchen', 'default');
    edits = editCell(saved, edits, 'u1', 'hall', 'control');
    edits = editCell(saved, edits, 'u2', 'hall', 'none');
    expect(rulesToSave(saved, edits)).toEqual([
      { user_id: 'u1', rooms: { hall: 'control' }, devices: { lamp: 'control' } },
      { user_id: 'u2', rooms: { hall: 'none' }, devices: {} },
    ]);
  });

  it('sets or removes one device entry', () => {
    expect(withDeviceChoice(saved.u1, 'plug', 'none').devices).toEqual({ lamp: 'control', plug: 'none' });
    expect(withDeviceChoice(saved.u1, 'lamp', 'default').devices).toEqual({});
    expect(saved.u1.devices).toEqual({ lamp: 'control' });
  });
});

describe('room columns', () => {
  const room = (id: string, floor: string | null, order: number): Room => ({
    id,
    name: id,
    icon: 'house',
    order,
    floor_id: floor,
  });
  const rooms = [
    room('kitchen', 'ground', 0),
    room('hall', null, 1),
    room('bed', 'up', 2),
    room('bath', 'gone', 3),
  ];

  it('is one unnamed group without floors, and none without rooms', () => {
    expect(roomColumns(rooms, [])).toEqual([{ floorId: null, name: null, rooms }]);
    expect(roomColumns([], [])).toEqual([]);
  });

  it('groups by floor in order, then the rooms without a (known) floor; empty floors left out', () => {
    const groups = roomColumns(rooms, [
      { id: 'up', name: 'Upstairs' },
      { id: 'ground', name: 'Ground floor' },
      { id: 'attic', name: 'Attic' },
    ]);
    expect(groups.map((group) => [group.name, group.rooms.map((r) => r.id)])).toEqual([
      ['Upstairs', ['bed']],
      ['Ground floor', ['kitchen']],
      [null, ['hall', 'bath']],
    ]);
  });
});
