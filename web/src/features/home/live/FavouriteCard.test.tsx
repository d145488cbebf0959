import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevicesContext } from '../../devices/components/devices-context.js';
import type { Json } from '../../devices/model/device.types.js';
import { testHub } from '../../devices/test-hub.js';
import { FavouriteCard } from './FavouriteCard.js';

afterEach(cleanup);

const writable = { readOnly: false, write: true, set: true };
const lamp = {
  id: 'lamp',
  name: 'Hallway lamp',
  type: 'light',
  online: true,
  room_id: 'hall',
  inputs: [
    { id: 'state', type: 'toggle', property: 'state', access: writable },
    {
      id: 'brightness',
      type: 'slider',
      property: 'brightness',
      access: writable,
      range: { min: 0, max: 254 },
    },
  ],
  state: { state: 'ON', brightness: 100 },
};

function setup(raw: Json, place: { first?: boolean; last?: boolean } = {}) {
  const { store, actions } = testHub([raw]);
  const onMove = vi.fn();
  const onUnstar = vi.fn();
  render(
    <DevicesContext.Provider value={{ store, actions }}>
      <FavouriteCard
        deviceId={String(raw.id)}
        roomName={(id) => (id === 'hall' ? 'Hall' : null)}
        first={place.first ?? false}
        last={place.last ?? false}
        onMove={onMove}
        onUnstar={onUnstar}
      />
    </DevicesContext.Provider>,
  );
  return { store, actions, onMove, onUnstar, card: screen.getByRole('article', { name: String(raw.name) }) };
}

describe('FavouriteCard', () => {
  it('shows the icon, name, room, power switch and first control, and sends through the hub', () => {
    const { card, actions } = setup(lamp);
    expect(card.querySelector('[data-icon="light"]')).not.toBeNull();
    expect(within(card).getByText('Hall')).toBeTruthy();
    const power = within(card).getByRole('switch', { name: 'Power Hallway lamp' });
    expect(power.getAttribute('aria-checked')).toBe('true');
    expect(within(card).getAllByRole('slider')).toHaveLength(1);
    fireEvent.click(power);
    expect(actions.send).toHaveBeenCalledWith(expect.objectContaining({ id: 'lamp' }), expect.anything());
  });

  it('follows the live state and shows "Offline" until the device reports again', async () => {
    const { card, store } = setup(lamp);
    await act(async () => {
      store.applyState('lamp', { state: 'OFF', brightness: 100 });
    });
    expect(within(card).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    await act(async () => {
      store.upsert({ id: 'lamp', online: false });
    });
    expect(within(card).getByText('Offline')).toBeTruthy();
    expect(card.className).toContain('is-offline');
    await act(async () => {
      store.applyState('lamp', { state: 'ON' });
    });
    expect(within(card).queryByText('Offline')).toBeNull();
  });

  it.each([
    [{ first: true }, 'Move Hallway lamp up'],
    [{ last: true }, 'Move Hallway lamp down'],
  ])('%j cannot %s', (place, label) => {
    const { card } = setup(lamp, place);
    expect((within(card).getByRole('button', { name: label }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves and un-stars through its callbacks', () => {
    const { card, onMove, onUnstar } = setup(lamp);
    fireEvent.click(within(card).getByRole('button', { name: 'Move Hallway lamp down' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Move Hallway lamp up' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Remove Hallway lamp from favourites' }));
    expect(onMove.mock.calls).toEqual([
      ['lamp', 1],
      ['lamp', -1],
    ]);
    expect(onUnstar).toHaveBeenCalledWith('lamp');
  });

  it('shows a sensor main value instead of a switch, and "Unassigned" without a room', () => {
    const { card } = setup({
      id: 'climate',
      name: 'Bedroom climate',
      online: true,
      state: { linkquality: 90, temperature: 21.5, humidity: 40 },
    });
    expect(within(card).queryByRole('switch')).toBeNull();
    expect(card.querySelector('[data-metric="temperature"]')?.textContent).toBe('Temperature: 21.5°C');
    expect(within(card).getByText('Unassigned')).toBeTruthy();
  });
});

describe('FavouriteCard in household words (issue 34)', () => {
  it('does not repeat the room under a name that starts with it', () => {
    const { card } = setup({ ...lamp, name: 'Hall lamp' });
    expect(within(card).getByRole('heading').textContent).toBe('Hall lamp');
    expect(within(card).queryByText('Hall')).toBeNull();
  });

  it('reads a lock as Locked with an "Unlock" that asks first', () => {
    const { card, actions } = setup({
      id: 'door',
      name: 'Front door lock',
      type: 'lock',
      online: true,
      state: { state: 'LOCK' },
      capabilities: [
        {
          id: 'state',
          property: 'state',
          kind: 'binary',
          type: 'lock',
          access: writable,
          metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
        },
      ],
    });
    expect(within(card).queryByRole('switch')).toBeNull();
    expect(within(card).getByText('Locked')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Unlock Front door lock' }));
    expect(actions.send).not.toHaveBeenCalled();
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Unlock Front door lock?' })).getByRole('button', {
        name: 'Unlock',
      }),
    );
    expect(actions.send).toHaveBeenCalledWith(expect.objectContaining({ id: 'door' }), {
      input: { id: 'state', value: false },
      state: { on: false },
    });
  });
});
