import type { Room } from '@hearth/contracts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FavouritesStore } from '../../rooms/favourites-store.js';
import { RoomFeed } from '../../rooms/room-events.js';
import { RoomsStore } from '../../rooms/rooms-store.js';
import type { RoomsHub } from '../../rooms/use-rooms.js';
import type { Json } from '../model/device.types.js';
import { SelectionStore } from '../store/selection-store.js';
import { testHub } from '../test-hub.js';
import { AssignToolbar } from './AssignToolbar.js';
import { DeviceTile } from './DeviceTile.js';
import { DevicesContext } from './devices-context.js';

const api = vi.hoisted(() => ({
  createRoom: vi.fn(),
  assignDevices: vi.fn(),
}));
vi.mock('../../rooms/rooms.api.js', async (original) => ({
  ...(await original<object>()),
  createRoom: api.createRoom,
  assignDevices: api.assignDevices,
}));

afterEach(cleanup);
beforeEach(() => {
  api.createRoom.mockReset();
  api.assignDevices.mockReset();
  api.createRoom.mockImplementation(async ({ name }: { name: string }) => ({
    success: true,
    status: 201,
    data: room(`new-${name}`, name),
  }));
  api.assignDevices.mockImplementation(async (roomId: string | null, ids: string[]) => ({
    success: true,
    status: 200,
    data: { room_id: roomId, changed: ids },
  }));
});

const room = (id: string, name: string, order = 0): Room => ({
  id,
  name,
  icon: 'house',
  order,
  floor_id: null,
});
const ROOMS = [room('k', 'Kitchen', 0), room('b', 'Bedroom', 1)];

async function setup(devices: Json[], favourites: string[] = [], viewer: 'manager' | 'user' = 'manager') {
  const { store, actions } = testHub(devices);
  const save = vi.fn(async (ids: string[]) => ({ success: true, status: 200, data: { device_ids: ids } }));
  const hub: RoomsHub = {
    feed: new RoomFeed(),
    rooms: new RoomsStore(async () => ({ success: true, status: 200, data: { rooms: ROOMS, floors: [] } })),
    favourites: new FavouritesStore(
      { fetch: async () => ({ success: true, status: 200, data: { device_ids: favourites } }), save },
      () => 'me',
    ),
    dispose: () => {},
  };
  const selection = new SelectionStore();
  await act(async () => {
    render(
      <DevicesContext.Provider
        value={
          viewer === 'manager'
            ? { store, actions, rooms: hub, selection }
            : { store, actions, rooms: hub, manager: false }
        }
      >
        <AssignToolbar />
        {devices.map((device) => (
          <DeviceTile key={String(device.id)} deviceKey={String(device.id)} />
        ))}
      </DevicesContext.Provider>,
    );
  });
  return { store, hub, save, selection };
}

const tile = (name: string) => screen.getByRole('article', { name });
/** docs/screens.md#device-tile: the room menu and the star are in the tile's menu. */
const openMenu = (name: string) =>
  fireEvent.click(within(tile(name)).getByRole('button', { name: `Options for ${name}` }));

describe('rooms on a tile the viewer may not change (docs/screens.md#devices-for-a-user)', () => {
  it('shows a `user` the room read-only: no menu, star, suggestion, Select or drag', async () => {
    const { save } = await setup(
      [
        { id: 'lamp', name: 'Kitchen lamp', room_id: 'k', access: 'control' },
        { id: 'plug', name: 'Plug', suggested_room: 'Kitchen', access: 'control' },
      ],
      [],
      'user',
    );
    expect(within(tile('Kitchen lamp')).getByText('Kitchen')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Room of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /favourites/ })).toBeNull();
    expect(screen.queryByText('Suggested: Kitchen')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Select' })).toBeNull();
    expect(tile('Kitchen lamp').getAttribute('draggable')).toBeNull();
    expect(save).not.toHaveBeenCalled();
  });

  it("shows a resident's view-only device its room without the menu or suggestion, and leaves it out of Accept all", async () => {
    await setup([
      { id: 'lamp', name: 'Lamp', suggested_room: 'Kitchen', access: 'view' },
      { id: 'plug', name: 'Plug', suggested_room: 'Kitchen', access: 'control' },
    ]);
    expect(within(tile('Lamp')).getByText('Unassigned')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Room of Lamp: Unassigned' })).toBeNull();
    expect(within(tile('Lamp')).queryByText('Suggested: Kitchen')).toBeNull();
    expect(screen.getByRole('button', { name: 'Accept all suggestions (1)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    expect(screen.queryByRole('checkbox', { name: 'Select Lamp' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select Plug' })).toBeTruthy();
  });
});

describe("the tile's room menu (docs/rooms.md#on-the-devices-page)", () => {
  it('lists the rooms, Unassigned and New room…, the current one checked, and moves with one call', async () => {
    await setup([{ id: 'lamp', name: 'Kitchen lamp', room_id: 'k' }]);
    openMenu('Kitchen lamp');
    fireEvent.click(screen.getByRole('button', { name: 'Room of Kitchen lamp: Kitchen' }));
    const menu = screen.getByRole('menu', { name: 'Move Kitchen lamp to room' });
    const options = within(menu).getAllByRole('menuitemradio');
    expect(options.map((o) => [o.textContent, o.getAttribute('aria-checked')])).toEqual([
      ['Kitchen', 'true'],
      ['Bedroom', 'false'],
      ['Unassigned', 'false'],
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'New room…' })).toBeTruthy();
    expect(document.activeElement).toBe(options[0]);
    fireEvent.keyDown(options[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(options[1]);
    await act(async () => fireEvent.click(options[1]!));
    expect(api.assignDevices).toHaveBeenCalledExactlyOnceWith('b', ['lamp']);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('creates a room from "New room…" and moves the device into it', async () => {
    await setup([{ id: 'lamp', name: 'Lamp' }]);
    openMenu('Lamp');
    fireEvent.click(screen.getByRole('button', { name: 'Room of Lamp: Unassigned' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'New room…' }));
    fireEvent.change(screen.getByLabelText('Room name'), { target: { value: ' Attic ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create' })));
    expect(api.createRoom).toHaveBeenCalledExactlyOnceWith({ name: 'Attic' });
    expect(api.assignDevices).toHaveBeenCalledExactlyOnceWith('new-Attic', ['lamp']);
  });

  it('closes on Escape, giving focus back to the button, and moves nothing', async () => {
    await setup([{ id: 'lamp', name: 'Lamp' }]);
    openMenu('Lamp');
    const button = screen.getByRole('button', { name: 'Room of Lamp: Unassigned' });
    fireEvent.click(button);
    fireEvent.keyDown(screen.getAllByRole('menuitemradio')[0]!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(api.assignDevices).not.toHaveBeenCalled();
  });

  it('follows the stream: the room shown changes when a device.upsert moves the device', async () => {
    const { store } = await setup([{ id: 'lamp', name: 'Lamp', room_id: 'k' }]);
    await act(async () => store.upsert({ id: 'lamp', name: 'Lamp', room_id: 'b' }));
    expect(within(tile('Lamp')).getByText('Bedroom', { selector: '.tile-room-name' })).toBeTruthy();
    openMenu('Lamp');
    expect(screen.getByRole('button', { name: 'Room of Lamp: Bedroom' })).toBeTruthy();
  });

  it('shows the name without its room, the full name on hover', async () => {
    await setup([{ id: 'lamp', name: 'Kitchen lamp', room_id: 'k' }]);
    const heading = within(tile('Kitchen lamp')).getByRole('heading');
    expect(heading.textContent).toBe('Lamp');
    expect(heading.getAttribute('title')).toBe('Kitchen lamp');
  });
});

describe('the favourite star', () => {
  it('stars and un-stars, saving the whole list; its name names the device (issue 34)', async () => {
    const { save } = await setup([{ id: 'lamp', name: 'Lamp' }], ['other']);
    openMenu('Lamp');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add Lamp to favourites' })));
    expect(save).toHaveBeenLastCalledWith(['other', 'lamp']);
    expect(within(tile('Lamp')).getByRole('img', { name: 'Favourite' })).toBeTruthy();
    openMenu('Lamp');
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Remove Lamp from favourites' })),
    );
    expect(save).toHaveBeenLastCalledWith(['other']);
    openMenu('Lamp');
    expect(screen.getByRole('button', { name: 'Add Lamp to favourites' })).toBeTruthy();
    expect(within(tile('Lamp')).queryByRole('img', { name: 'Favourite' })).toBeNull();
  });
});

describe('suggestions', () => {
  const devices = [
    { id: 'lamp', name: 'kitchen/Lamp', suggested_room: 'kitchen' },
    { id: 'kettle', name: 'Kitchen/Kettle', suggested_room: 'Kitchen' },
    { id: 'tv', name: 'Den/TV', suggested_room: 'Den' },
    { id: 'plug', name: 'Plug' },
  ];

  it('accepts one: into the room of that name whatever its case, or a new room', async () => {
    await setup(devices);
    expect(within(tile('kitchen/Lamp')).getByText('Suggested: kitchen')).toBeTruthy();
    expect(within(tile('Plug')).queryByText(/Suggested/)).toBeNull();
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Accept: move kitchen/Lamp to kitchen' })),
    );
    expect(api.createRoom).not.toHaveBeenCalled();
    expect(api.assignDevices).toHaveBeenCalledExactlyOnceWith('k', ['lamp']);
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Accept: move Den/TV to Den' })),
    );
    expect(api.createRoom).toHaveBeenCalledExactlyOnceWith({ name: 'Den' });
    expect(api.assignDevices).toHaveBeenLastCalledWith('new-Den', ['tv']);
  });

  it('accepts all with one call per room, and the count follows the stream', async () => {
    const { store } = await setup(devices);
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Accept all suggestions (3)' })),
    );
    // In the page's order (by name): Den/TV, Kitchen/Kettle, kitchen/Lamp.
    expect(api.assignDevices.mock.calls).toEqual([
      ['new-Den', ['tv']],
      ['k', ['kettle', 'lamp']],
    ]);
    expect(api.createRoom).toHaveBeenCalledExactlyOnceWith({ name: 'Den' });
    await act(async () => {
      store.upsert({ id: 'lamp', room_id: 'k', suggested_room: null });
      store.upsert({ id: 'kettle', room_id: 'k', suggested_room: null });
    });
    expect(screen.getByRole('button', { name: 'Accept all suggestions (1)' })).toBeTruthy();
  });
});

describe('selection', () => {
  it('picks tiles, moves them all with one call, then leaves the mode', async () => {
    await setup([
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: 'Beta' },
      { id: 'c', name: 'Gamma' },
    ]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Gamma' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Alpha' }));
    expect(screen.getByRole('status').textContent).toBe('2 selected');
    fireEvent.click(screen.getByRole('button', { name: 'Move to room' }));
    await act(async () => fireEvent.click(screen.getByRole('menuitemradio', { name: 'Bedroom' })));
    expect(api.assignDevices).toHaveBeenCalledExactlyOnceWith('b', ['c', 'a']);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Select' }));
    expect(screen.queryByText(/selected/)).toBeNull();
  });

  it('leaves on Escape and on Cancel', async () => {
    await setup([{ id: 'a', name: 'Alpha' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Alpha' }));
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(api.assignDevices).not.toHaveBeenCalled();
  });
});
