import { describe, expect, it } from 'vitest';
import type { Json } from '../devices/model/device.types.js';
import { deviceFrom } from '../devices/model/test-devices.js';
import {
  planRoomAction,
  type RoomActionProgress,
  roomActionFell,
  roomActionSummary,
  runConfirmedRoomAction,
  runRoomAction,
} from './room-actions.js';

const writable = { readOnly: false, write: true, set: true };
const power = { id: 'state', type: 'toggle', property: 'state', access: writable };
const device = (id: string, type: string, room: string | null, extra: Json = {}) =>
  deviceFrom({ id, name: id, type, room_id: room, inputs: [power], ...extra });

const devices = [
  device('lamp', 'light', 'kitchen'),
  device('plug', 'switch', 'kitchen'),
  device('lock', 'lock', 'kitchen'),
  device('sensor', 'sensor', 'kitchen', { inputs: [] }),
  device('hall-lamp', 'light', 'hall'),
  device('no-power', 'light', 'kitchen', { inputs: [] }),
  device('loose', 'light', null),
];

describe('planRoomAction', () => {
  it.each([
    ['kitchen', false, ['lamp', 'plug'], { on: false }],
    ['kitchen', true, ['lamp', 'plug'], { on: true }],
    ['hall', false, ['hall-lamp'], { on: false }],
    ['garage', false, [], null],
  ])('%s on=%s → %j', (room, on, ids, state) => {
    const plan = planRoomAction(devices, room, on);
    expect(plan.map((item) => item.device.id)).toEqual(ids);
    for (const item of plan) expect(item.command.state).toEqual(state);
  });
});

describe('runRoomAction', () => {
  it('sends each command, reports progress after each, and sums up the failures', async () => {
    const plan = planRoomAction(devices, 'kitchen', false);
    const seen: number[] = [];
    const sent: string[] = [];
    const summary = await runRoomAction(
      plan,
      async (target) => {
        sent.push(target.id as string);
        if (target.id === 'plug') return 'Command failed';
        if (target.id === 'lamp') return null;
        throw new Error('never');
      },
      (progress) => seen.push(progress.done),
      1,
    );
    expect(sent).toEqual(['lamp', 'plug']);
    expect(seen).toEqual([0, 1, 2]);
    expect(summary.failed.map((failure) => [failure.device.id, failure.error])).toEqual([
      ['plug', 'Command failed'],
    ]);
    expect(roomActionSummary(summary, false)).toBe('Turned off 1 of 2; failed: plug');
  });

  it('counts a send that throws as failed with its message', async () => {
    const plan = planRoomAction(devices, 'hall', true);
    const summary = await runRoomAction(plan, async () => {
      throw new Error('Not connected');
    });
    expect(summary).toMatchObject({ total: 1, done: 1 });
    expect(summary.failed[0]?.error).toBe('Not connected');
  });

  it.each([
    [{ total: 0, done: 0, failed: [] }, true, 'No lights or switches in this room'],
    [{ total: 3, done: 3, failed: [] }, true, 'Turned on 3 of 3'],
  ])('summary %j', (progress, on, text) => {
    expect(roomActionSummary(progress, on)).toBe(text);
  });
});

describe('runConfirmedRoomAction (docs/screens.md#room-actions, issue 34)', () => {
  const room = ['desk', 'hall', 'attic', 'porch', 'garden'].map((id) => device(id, 'light', 'den'));

  it('counts a device as done only when its state confirmed it, and names the others', async () => {
    const plan = planRoomAction(room, 'den', false);
    const seen: number[] = [];
    const summary = await runConfirmedRoomAction(
      plan,
      async (sent, onConfirmed) => {
        onConfirmed(sent[1]!.device);
        onConfirmed(sent[0]!.device);
        return {
          results: [
            { device_id: 'desk', outcome: 'confirmed' },
            { device_id: 'hall', outcome: 'confirmed' },
            { device_id: 'attic', outcome: 'not_responding' },
            { device_id: 'porch', outcome: 'offline' },
            { device_id: 'garden', outcome: 'refused', error: 'Device not found' },
          ],
          confirmed: 2,
          total: 5,
        };
      },
      (progress) => seen.push(progress.done),
    );
    expect(seen).toEqual([0, 1, 2, 2]);
    expect(roomActionSummary(summary, false)).toBe(
      'Turned off 2 of 5 — 1 not responding: attic; 1 offline: porch; failed: garden',
    );
    expect(roomActionFell(summary)).toBe(true);
  });

  it('fails every device with the message when the call itself fails', async () => {
    const summary = await runConfirmedRoomAction(
      planRoomAction(room, 'den', true),
      async () => 'Device bus is not connected',
    );
    expect(summary.failed.map((failure) => failure.error)).toEqual(
      Array(5).fill('Device bus is not connected'),
    );
    expect(roomActionSummary(summary, true)).toBe(
      'Turned on 0 of 5; failed: desk, hall, attic, porch, garden',
    );
  });

  it.each([
    [
      { total: 6, done: 4, failed: [], notResponding: room.slice(0, 2) },
      'Turned off 4 of 6 — 2 not responding: desk, hall',
    ],
    [{ total: 2, done: 1, failed: [], offline: room.slice(3, 4) }, 'Turned off 1 of 2 — 1 offline: porch'],
    [{ total: 2, done: 2, failed: [], notResponding: [], offline: [] }, 'Turned off 2 of 2'],
  ] as [RoomActionProgress, string][])('summary %#', (progress, text) => {
    expect(roomActionSummary(progress, false)).toBe(text);
  });
});
