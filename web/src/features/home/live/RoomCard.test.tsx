import type { DeviceBulkCommandAnswer, Room } from '@hearth/contracts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { DevicesContext } from '../../devices/components/devices-context.js';
import { sourceDevice } from '../../devices/model/source-devices.js';
import { testHub } from '../../devices/test-hub.js';
import type { PlannedCommand } from '../../rooms/room-actions.js';
import { RoomCard } from './RoomCard.js';

afterEach(cleanup);

const room: Room = { id: 'living', name: 'Living room', icon: 'sofa', order: 0, floor_id: null };
const writable = { readOnly: false, write: true, set: true };
/** A Zigbee2MQTT lamp in the room; a Home Assistant light (a composite) and a Tasmota dimmer join it. */
const devices = [
  {
    id: 'floor',
    name: 'Floor lamp',
    protocol: 'zigbee',
    type: 'light',
    online: true,
    room_id: 'living',
    inputs: [{ id: 'state', type: 'toggle', property: 'state', access: writable }],
    state: { state: 'ON' },
  },
];

function setup(answer: (commands: number) => DeviceBulkCommandAnswer | string) {
  const raw = [devices[0], { id: 'lamp', ...rawOf('lamp') }, { id: 'dimmer', ...rawOf('dimmer') }];
  const { store, actions } = testHub(raw as never);
  actions.sendAll.mockImplementation((async (plan: PlannedCommand[]) => answer(plan.length)) as never);
  const all = store.getIds().map((id) => store.getDevice(id)!);
  render(
    <MemoryRouter>
      <DevicesContext.Provider value={{ store, actions }}>
        <RoomCard room={room} summary={{ on: 2, temperature: null, humidity: null }} devices={all} />
      </DevicesContext.Provider>
    </MemoryRouter>,
  );
  return { actions, card: screen.getByRole('article', { name: 'Living room' }) };
}

/** The plan the first call of sendAll got. */
const sentPlan = (sendAll: { mock: { calls: unknown[][] } }) =>
  sendAll.mock.calls[0]?.[0] as PlannedCommand[];

/** A source device's raw fields in the room (the hub's shape: `room_id`). */
function rawOf(name: 'lamp' | 'dimmer') {
  const { capabilities, inputs, state, type, name: label, protocol } = sourceDevice(name);
  return { capabilities, inputs, state, type, name: label, protocol, online: true, room_id: 'living' };
}

describe('RoomCard (docs/screens.md#room-cards)', () => {
  it('turns the room off in one confirmed call, every source alike, and names who did not', async () => {
    const { actions, card } = setup((total) => ({
      results: [
        { device_id: 'lamp', name: 'Desk lamp', outcome: 'not_responding' },
        { device_id: 'dimmer', name: 'Dimmer', outcome: 'confirmed' },
        { device_id: 'floor', name: 'Floor lamp', outcome: 'confirmed' },
      ],
      confirmed: 2,
      total,
    }));
    await act(async () =>
      fireEvent.click(within(card).getByRole('button', { name: 'All off in Living room' })),
    );
    expect(actions.sendAll).toHaveBeenCalledTimes(1);
    expect(actions.deliver).not.toHaveBeenCalled();
    const plan = sentPlan(actions.sendAll);
    expect(plan.map(({ device, command }) => [device.id, command.state])).toEqual([
      ['lamp', { light: { state: false } }],
      ['dimmer', { light: { state: false } }],
      ['floor', { on: false }],
    ]);
    const status = within(card).getByRole('status');
    expect(status.textContent).toBe('Turned off 2 of 3 — 1 not responding: Desk lamp');
    expect(status.className).toContain('tone-danger');
  });

  it('turns it on with "All on"', async () => {
    const { actions, card } = setup((total) => ({
      results: [
        { device_id: 'dimmer', name: 'Dimmer', outcome: 'confirmed' },
        { device_id: 'lamp', name: 'Desk lamp', outcome: 'confirmed' },
        { device_id: 'floor', name: 'Floor lamp', outcome: 'confirmed' },
      ],
      confirmed: 3,
      total,
    }));
    await act(async () =>
      fireEvent.click(within(card).getByRole('button', { name: 'All on in Living room' })),
    );
    expect(sentPlan(actions.sendAll).map(({ command }) => command.state)).toEqual([
      { light: { state: true } },
      { light: { state: true } },
      { on: true },
    ]);
    expect(within(card).getByRole('status').textContent).toBe('Turned on 3 of 3');
  });
});
