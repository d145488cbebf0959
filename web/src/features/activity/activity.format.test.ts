import type { ActivityEntry } from '@hearth/contracts';
import { expect, describe as group, it } from 'vitest';
import { actorLabel, describe, relativeTime } from './activity.format.js';

const NOW = Date.UTC(2026, 5, 10, 12);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

group('relative times', () => {
  it.each([
    [10_000, 'just now'],
    [5 * 60_000, '5 min ago'],
    [3 * 3_600_000, '3 h ago'],
    [30 * 3_600_000, 'yesterday'],
    [3 * 86_400_000, '3 days ago'],
  ])('%i ms ago reads %j', (ms, text) => {
    expect(relativeTime(ago(ms), NOW)).toBe(text);
  });

  it('gives the date beyond a week', () => {
    expect(relativeTime(ago(30 * 86_400_000), NOW)).toMatch(/2026/);
  });
});

const entry = (fields: Partial<ActivityEntry>): ActivityEntry => ({
  id: '1',
  at: ago(0),
  actor: { type: 'user', id: 'u1', label: 'Ada Lovelace' },
  kind: 'device.command',
  detail: {},
  result: 'ok',
  ...fields,
});
const guest = { type: 'pass', id: 'p1', label: 'Cleaner' } as const;
const names = {
  device: (id: string) => (id === 'lamp' ? 'Desk lamp' : undefined),
  room: (id: string) => (id === 'study' ? 'Study' : undefined),
};

group('what an entry says', () => {
  it.each([
    [
      entry({ device_id: 'lamp', room_id: 'study', detail: { state: { on: true, brightness: 40 } } }),
      { title: 'Device command: Desk lamp · Study', summary: 'on: true, brightness: 40' },
    ],
    [
      entry({ kind: 'device.rename', device_id: 'gone', detail: { name: 'Old', to: 'New' } }),
      { title: 'Device renamed: Old', summary: 'to “New”' },
    ],
    [
      entry({
        kind: 'sign_in',
        result: 'refused',
        detail: { email: 'a@example.com', reason: 'Invalid email or password' },
      }),
      { title: 'Sign-in', summary: 'a@example.com (Invalid email or password)' },
    ],
    [
      entry({ kind: 'room.assign', room_id: 'study', detail: { count: 3 } }),
      { title: 'Devices moved: Study', summary: '3 devices' },
    ],
    [entry({ kind: 'device.offline', device_id: 'x1' }), { title: 'Device went offline: x1', summary: '' }],
    [
      entry({ kind: 'pass.use', actor: guest, detail: { action: 'open' } }),
      { title: 'Guest pass used', summary: 'Opening the page' },
    ],
    [
      entry({ kind: 'pass.use', actor: guest, detail: { action: 'connect' } }),
      { title: 'Guest pass used', summary: 'Connecting for live updates' },
    ],
    [
      entry({
        kind: 'pass.use',
        actor: guest,
        result: 'refused',
        detail: { action: 'connect', reason: 'This pass is paused' },
      }),
      { title: 'Guest pass used', summary: 'Connecting for live updates (This pass is paused)' },
    ],
    [
      entry({
        kind: 'scene.update',
        detail: { scene_id: 's1', name: 'Movie', device_ids: ['lamp'], count: 1 },
      }),
      { title: 'Scene changed', summary: '“Movie”' },
    ],
    [
      entry({ kind: 'automation.run', detail: { automation_id: 'a1', name: 'Fan when humid' } }),
      { title: 'Automation run', summary: '“Fan when humid”' },
    ],
    [
      entry({
        kind: 'automation.delete',
        result: 'refused',
        detail: { automation_id: 'a1', reason: 'Automation not found' },
      }),
      { title: 'Automation deleted', summary: '(Automation not found)' },
    ],
  ])('%#', (input, expected) => {
    expect(describe(input, names)).toEqual(expected);
  });
});

group('an API token as actor', () => {
  it('names the token and whose it is; its calls by method, route and status', () => {
    const actor = {
      type: 'api' as const,
      id: 't1',
      label: 'Stream Deck',
      owner: { id: 'u1', label: 'Ada Lovelace' },
    };
    expect(actorLabel(actor)).toBe('Stream Deck (API token of Ada Lovelace)');
    expect(actorLabel({ type: 'user', id: 'u1', label: 'Ada Lovelace' })).toBe('Ada Lovelace');
    const entry = {
      id: 'e1',
      at: '2026-06-01T12:00:00.000Z',
      actor,
      kind: 'api.call' as const,
      detail: { method: 'GET', route: '/api/devicehub/devices', status: 200 },
      result: 'ok' as const,
    };
    expect(describe(entry, { device: () => undefined, room: () => undefined })).toEqual({
      title: 'API call',
      summary: 'GET /api/devicehub/devices → 200',
    });
  });
});
