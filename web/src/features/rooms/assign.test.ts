import type { Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../shared/api/client.js';
import { type AssignApi, acceptAll, moveDevices, suggestionGroups } from './assign.js';

const room = (id: string, name: string): Room => ({ id, name, icon: 'house', order: 0, floor_id: null });
const ok = <T>(data: T): ApiResult<T> => ({ success: true, status: 200, data });
const refused = (error: string): ApiResult<never> => ({
  success: false,
  status: 400,
  data: undefined as never,
  error,
});

/** Records every call; rooms are created with the id `new-{name}`, unless the name is "Clash". */
function fakeApi() {
  const calls: string[] = [];
  const api: AssignApi = {
    createRoom: async ({ name }) => {
      calls.push(`create ${name}`);
      return name === 'Clash'
        ? refused(`A room named "${name}" already exists without a floor`)
        : ok(room(`new-${name}`, name));
    },
    assignDevices: async (roomId, ids) => {
      calls.push(`assign ${roomId} ${ids.join(',')}`);
      return ids.includes('unknown')
        ? refused('Unknown device: unknown')
        : ok({ room_id: roomId, changed: ids });
    },
  };
  return { api, calls };
}

describe('moveDevices', () => {
  it.each<[string, Parameters<typeof moveDevices>[1], string[], string[], string | null]>([
    ['to a room: one call for all', { roomId: 'r1' }, ['a', 'b'], ['assign r1 a,b'], null],
    ['to unassigned', { roomId: null }, ['a'], ['assign null a'], null],
    [
      'to a new room: created first',
      { newRoom: ' Attic ' },
      ['a'],
      ['create Attic', 'assign new-Attic a'],
      null,
    ],
    ['nothing to move: no call', { roomId: 'r1' }, [], [], null],
    [
      'a refused creation moves nothing',
      { newRoom: 'Clash' },
      ['a'],
      ['create Clash'],
      'A room named "Clash" already exists without a floor',
    ],
    [
      'a refused move says why',
      { roomId: 'r1' },
      ['unknown'],
      ['assign r1 unknown'],
      'Unknown device: unknown',
    ],
  ])('%s', async (_, target, ids, calls, error) => {
    const fake = fakeApi();
    expect(await moveDevices(fake.api, target, ids)).toBe(error);
    expect(fake.calls).toEqual(calls);
  });
});

describe('suggestionGroups', () => {
  const rooms = [room('k', 'Kitchen'), room('l', 'Living room')];
  it('groups by room name ignoring case, matched to existing rooms, skipping devices without id or suggestion', () => {
    const groups = suggestionGroups(
      [
        { id: 'lamp', suggestedRoom: 'kitchen' },
        { id: 'tv', suggestedRoom: 'Den' },
        { id: null, suggestedRoom: 'Kitchen' },
        { id: 'plug', suggestedRoom: null },
        { id: 'kettle', suggestedRoom: 'KITCHEN' },
        { id: 'radio', suggestedRoom: 'den' },
      ],
      rooms,
    );
    expect(groups).toEqual([
      { name: 'kitchen', room: rooms[0], deviceIds: ['lamp', 'kettle'] },
      { name: 'Den', room: null, deviceIds: ['tv', 'radio'] },
    ]);
  });
});

describe('acceptAll', () => {
  it('makes one call per room, creating missing rooms, and names the rooms that failed', async () => {
    const fake = fakeApi();
    const failed = await acceptAll(fake.api, [
      { name: 'Kitchen', room: room('k', 'Kitchen'), deviceIds: ['lamp', 'kettle'] },
      { name: 'Den', room: null, deviceIds: ['tv'] },
      { name: 'Clash', room: null, deviceIds: ['x'] },
    ]);
    expect(fake.calls).toEqual(['assign k lamp,kettle', 'create Den', 'assign new-Den tv', 'create Clash']);
    expect(failed).toEqual(['Clash: A room named "Clash" already exists without a floor']);
  });
});
